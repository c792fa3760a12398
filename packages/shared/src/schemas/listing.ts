import { z } from 'zod';
import { LISTING_DESCRIPTION_MAX } from '../constants';
import { tokenCodeSchema } from './token-code';
import { classicAddressSchema, multiLineText } from './common';
import { cleanText, isTokenName, tokenLinkFields } from './deploy';
import { TOKEN_MESSAGES, type TokenView } from './tokens';
import { IMAGE_URL_PREFIX, LOGO_URL_PREFIX, STORED_IMAGE_NAME } from './uploads';
import { CLAIM_METHODS, IDENTITY_MESSAGES } from '../token-identity';
import { tokenIdSchema } from './token-identity';
import { tokenViewDocumentSchema } from './public-api';

// Listing an existing token by its issuer address (spec 001 §2 "List token", §5 "Token listing",
// §7 POST /api/gateway-balances and POST /api/admin/tokens/add, §8 "Listing"). One form schema for
// the web form and the route; the route's request adds what the page fetched from the ledger.
// Supply and blackhole status are read from the ledger by the server, never taken from the form.

export const LISTING_MESSAGES = {
  name: 'Name must be 2-30 characters and only letters, numbers, spaces.',
  description: `Description must be less than ${LISTING_DESCRIPTION_MAX} characters.`,
  formErrors: 'Please fix the form errors.',
  fetchFailed: 'Could not fetch token details from XRPL.',
  databaseFailed: 'Something went wrong while checking the database.',
  listFailed: 'Failed to list token.',
  alreadyListed: TOKEN_MESSAGES.alreadyListed,
  // Ours (the spec has no text for these); each says what to do.
  logoUrl: 'The logo must be an image uploaded here. Please upload it again.',
  createdAt: 'Created date must be a valid date, not in the future.',
  currency: 'Currency must be a 3-character code or 40 hexadecimal characters.',
  issuesNothing: 'This address does not issue any token.',
  currencyNotIssued: 'This issuer does not issue that currency.',
  pickCurrency: 'This issuer issues several tokens. Please choose one.',
  logoRefused: 'The logo was refused: choose a valid image, or clear the file to go on without a logo.',
} as const;

/** A logo URL our upload route produced (`/cdn/logos/<sha256>.ext` or `/images/<sha256>.ext`). */
export function isServedLogoUrl(url: string): boolean {
  return [LOGO_URL_PREFIX, IMAGE_URL_PREFIX].some(
    (prefix) => url.startsWith(prefix) && STORED_IMAGE_NAME.test(url.slice(prefix.length)),
  );
}

/** A ledger currency code: 3 characters (not XRP) or 40 hex digits (upper-cased): the one token-code schema. */
export const currencyCodeSchema = tokenCodeSchema('currency', {
  tickers: false,
  allowLp: true,
  message: LISTING_MESSAGES.currency,
  messages: { xrp: IDENTITY_MESSAGES.xrp },
});

/** 'YYYY-MM-DD' (the date input) or a full ISO timestamp; not in the future. */
const createdAtSchema = z
  .string({ message: LISTING_MESSAGES.createdAt })
  .trim()
  .refine((v) => {
    if (v === '') return true;
    if (!/^\d{4}-\d{2}-\d{2}(?:T[\d:.]+(?:Z|[+-]\d{2}:\d{2})?)?$/.test(v)) return false;
    const t = Date.parse(v.length === 10 ? `${v}T00:00:00Z` : v);
    // A day of slack: the user's calendar day may be ahead of UTC.
    return Number.isFinite(t) && t <= Date.now() + 24 * 3600_000;
  }, LISTING_MESSAGES.createdAt)
  .optional();

/** The form's own fields (spec §5 "Token listing"), as typed. */
export const listingFormSchema = z.object({
  name: cleanText().refine(isTokenName, LISTING_MESSAGES.name),
  description: cleanText()
    .pipe(multiLineText('description', 100_000))
    .refine((v) => v.length <= LISTING_DESCRIPTION_MAX, LISTING_MESSAGES.description),
  ...tokenLinkFields,
  /** The served URL from POST /api/upload (purpose 'listing'); optional. */
  logoUrl: z
    .string()
    .trim()
    .max(512, LISTING_MESSAGES.logoUrl)
    .refine((v) => v === '' || isServedLogoUrl(v), LISTING_MESSAGES.logoUrl)
    .optional(),
  telegramFileId: z.string().max(256).nullable().optional(),
  created_at: createdAtSchema,
});
export type ListingForm = z.output<typeof listingFormSchema>;
export type ListingFormInput = z.input<typeof listingFormSchema>;

/**
 * POST /api/admin/tokens/add: the form plus the issuer and the currency the page fetched. `supply`
 * and `is_blackholed` may be sent (spec's token entity) but are read from the ledger instead.
 * The currency may come as `currency` (the ledger code), `token_hex` or `ticker`; none means the
 * issuer's only currency.
 */
export const listTokenRequestSchema = listingFormSchema.extend({
  issuer_address: classicAddressSchema('issuer_address'),
  currency: currencyCodeSchema.optional(),
  token_hex: currencyCodeSchema.optional(),
  ticker: z.string().trim().min(1).max(40).optional(),
  supply: z.unknown().optional(),
  is_blackholed: z.unknown().optional(),
  is_new: z.boolean().optional(),
  is_market_listed: z.boolean().optional(),
  is_market_ready: z.boolean().optional(),
  is_active: z.boolean().optional(),
  csrf_token: z.string().optional(),
});
export type ListTokenRequest = z.output<typeof listTokenRequestSchema>;

/** The metadata a controller (or an admin) writes: the listing form without the created date. */
export const listingMetadataSchema = listingFormSchema.omit({ created_at: true });
export type ListingMetadata = z.output<typeof listingMetadataSchema>;
export type ListingMetadataInput = z.input<typeof listingMetadataSchema>;

/** POST /api/listing/claims/verify: the proof to check and the controller's own metadata. */
export const claimVerifyRequestSchema = listingMetadataSchema.extend({
  token_id: tokenIdSchema,
  method: z.enum(CLAIM_METHODS, { message: 'method must be wallet, challenge or toml' }),
  csrf_token: z.string().optional(),
});
export type ClaimVerifyRequest = z.output<typeof claimVerifyRequestSchema>;
export type ClaimVerifyInput = z.input<typeof claimVerifyRequestSchema>;

/** POST /api/listing/tokens/:id/metadata (the controller or an admin). */
export const metadataUpdateRequestSchema = listingMetadataSchema.extend({
  csrf_token: z.string().optional(),
});

/** Admin Tokens tab: POST /api/admin/tokens/:id/update (the created date is an admin's to set). */
export const adminUpdateTokenSchema = listingFormSchema.extend({ csrf_token: z.string().optional() });

/**
 * A token named in a path and query: its issuer and, for an issuer with several listed tokens, its
 * currency (a ticker or the ledger code): `/api/tokens/{issuer}/risk?currency=`, the history, …
 */
export const tokenRefSchema = z.object({
  issuer: classicAddressSchema('issuer'),
  currency: tokenCodeSchema('currency').optional(),
});

/** POST /api/gateway-balances. */
export const gatewayBalancesRequestSchema = z.object({ account: classicAddressSchema('account') });

/** One currency an account issues: its display text, its 160-bit code in hex, the amount outstanding. */
export const issuedTokenSchema = z.object({
  /** The ledger's code as the API writes it (3 characters or 40 hex). */
  currency: z.string(),
  /** The ticker people read (`currencyToTicker`). */
  ascii: z.string(),
  /** The code as 40 hex digits (a 3-character code in the ledger's standard 160-bit layout). */
  hex: z.string(),
  /** Outstanding obligations (frozen lines included), a decimal string. */
  value: z.string(),
});
export type IssuedToken = z.infer<typeof issuedTokenSchema>;

/** POST /api/gateway-balances: what an account issues, and its blackhole and RequireAuth state. */
export const gatewayBalancesResponseSchema = z.object({
  account: z.string(),
  tokens: z.array(issuedTokenSchema),
  /** Beyond the spec's shape: the issuer's blackhole status, as the listing form shows it. */
  is_blackholed: z.boolean(),
  require_auth: z.boolean(),
});
export type GatewayBalancesResponse = z.infer<typeof gatewayBalancesResponseSchema>;

/** What the listing routes answer: the listing as it now stands. */
export const listTokenResponseSchema = z.object({
  success: z.literal(true),
  token: tokenViewDocumentSchema,
  /** A sentence about what the proof did not do (a TOML that vouches without naming the caller). */
  note: z.string().optional(),
});
/** The token is the server's whole TokenView (an interface; its schema above documents it loosely). */
export type ListTokenResponse = Omit<z.infer<typeof listTokenResponseSchema>, 'token'> & { token: TokenView };
