import { useQuery } from '@tanstack/react-query';
import {
  CLAIM_CHALLENGE_TTL_MINUTES,
  LISTING_MESSAGES,
  type ClaimChallengeView,
  type ControlLossView,
  type ClaimVerifyInput,
  type GatewayBalancesResponse,
  type ListingControlView,
  type ListingMetadata,
  type ListTokenResponse,
  type TokenView,
} from '@ledgerpad/shared';
import { apiGet, apiPost, hasStatus, userMessage } from '../../lib/api';
import { listingKeys } from './keys';

// The calls of the listing page (spec 001 §7): what the issuer issues, whether it is listed, the
// logo upload and the listing itself. Failures become the spec's §8 messages here, once.

/** A failure with the sentence to show and, when the server wrote one for people, its reason. */
export class ListingError extends Error {
  constructor(
    message: string,
    readonly detail?: string,
    readonly alreadyListed = false,
  ) {
    super(message);
  }
}

export interface IssuerDetails extends GatewayBalancesResponse {
  /** The token of this issuer already listed here, if any. */
  listed: TokenView | null;
}

export async function fetchIssuer(issuer: string): Promise<IssuerDetails> {
  const [ledger, listed] = await Promise.all([
    apiPost<GatewayBalancesResponse>('/api/gateway-balances', { account: issuer }).catch((err: unknown) => {
      throw new ListingError(LISTING_MESSAGES.fetchFailed, userMessage(err));
    }),
    apiGet<TokenView>(`/api/tokens/issuer/${encodeURIComponent(issuer)}`).catch((err: unknown) => {
      // 404 means "not listed" (spec §7).
      if (hasStatus(err, 404)) return null;
      throw new ListingError(LISTING_MESSAGES.databaseFailed);
    }),
  ]);
  if (ledger.tokens.length === 0) {
    throw new ListingError(LISTING_MESSAGES.fetchFailed, LISTING_MESSAGES.issuesNothing);
  }
  return { ...ledger, listed };
}

export async function listToken(body: Record<string, unknown>): Promise<ListTokenResponse> {
  try {
    return await apiPost<ListTokenResponse>('/api/admin/tokens/add', body);
  } catch (err) {
    if (hasStatus(err, 409)) {
      throw new ListingError(LISTING_MESSAGES.alreadyListed, undefined, true);
    }
    throw new ListingError(LISTING_MESSAGES.listFailed, userMessage(err));
  }
}

// --- Claims (issue 24): proof of control of a listed token's issuer ---

/** Every listed token of the issuer (one claim per listing: an issuer with several asks which). */
export const fetchListed = (issuer: string) =>
  apiGet<TokenView[]>(`/api/tokens/issuer/${encodeURIComponent(issuer)}/tokens`);

/** The listings the signed-in user controlled and lost to another user's proof. */
export const fetchLostControl = () => apiGet<ControlLossView[]>('/api/listing/lost-control');

export const fetchControl = (tokenId: number) =>
  apiGet<ListingControlView>(`/api/listing/control?token_id=${tokenId}`);

export const requestClaimCode = (tokenId: number) =>
  apiPost<ClaimChallengeView>('/api/listing/claims', { token_id: tokenId });

/** Checks the proof and writes the controller's metadata; the server's reason on a 4xx. */
export async function claimListing(body: ClaimVerifyInput): Promise<ListTokenResponse> {
  try {
    return await apiPost<ListTokenResponse>('/api/listing/claims/verify', body);
  } catch (err) {
    throw new ListingError(userMessage(err) ?? 'The claim could not be checked. Please try again.');
  }
}

export async function updateListing(tokenId: number, body: ListingMetadata): Promise<ListTokenResponse> {
  try {
    return await apiPost<ListTokenResponse>(`/api/listing/tokens/${tokenId}/metadata`, body);
  } catch (err) {
    throw new ListingError(userMessage(err) ?? 'The listing could not be updated. Please try again.');
  }
}

/** The issuer's listing, to claim (a 404: nothing listed yet). */
export function useListedForClaim(issuer: string) {
  return useQuery({
    queryKey: listingKeys.claim(issuer),
    queryFn: () => fetchListed(issuer),
    retry: false,
  });
}

/** Who controls the listing now, and how. */
export function useListingControl(tokenId: number) {
  return useQuery({
    queryKey: listingKeys.control(tokenId),
    queryFn: () => fetchControl(tokenId),
  });
}

/** The claim's one-time code, kept while it is valid (less a margin to use it). */
export function useClaimCode(tokenId: number) {
  return useQuery({
    queryKey: listingKeys.code(tokenId),
    queryFn: () => requestClaimCode(tokenId),
    staleTime: (CLAIM_CHALLENGE_TTL_MINUTES - 5) * 60_000,
    retry: false,
  });
}
