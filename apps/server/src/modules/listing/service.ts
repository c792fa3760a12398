import { and, eq, isNull } from 'drizzle-orm';
import type { Client } from 'xrpl';
import {
  currencyToTicker,
  IDENTITY_MESSAGES,
  LISTING_MESSAGES,
  listingRefusal,
  tickerToCurrency,
  type IssuedToken,
  type ListingMetadata,
  type ListTokenRequest,
  Decimal,
} from '@ledgerpad/shared';
import { badRequest, conflict, fieldError, ledgerUnavailable } from '../../lib/errors';
import type { Platform } from '../../platform';
import { rlusdIssuer } from '../../platform/accounts';
import { wallets } from '../../platform/custody-schema';
import { type TokenRegistry, type TokenRow } from '../tokens';
import { isStoredUpload } from '../uploads';
import { readIssuerFacts } from '../../ledger/account-root';
import { aboutAccount } from '../../ledger/errors';
import { firstTrustLineTime } from './ledger-proofs';
import { tokenIdentityEvents } from './schema';

// Listing an existing token: what an issuer issues and what its account says about it are read from
// the ledger (gateway_balances, account_info) every time; the form only names it and describes it.

/** A currency code as its 160 bits in hex: 40-hex codes as they are, 3-character ones in the standard layout. */
function currencyHex(code: string): string {
  if (code.length === 40) return code.toUpperCase();
  let ascii = '';
  for (const ch of code) ascii += ch.charCodeAt(0).toString(16).padStart(2, '0');
  return ('0'.repeat(24) + ascii + '0'.repeat(10)).toUpperCase();
}

/** The columns a listing form writes: name, description, logo and links ("N/A" or empty: none). */
export function metadataColumns(m: ListingMetadata) {
  const link = (v: string | undefined) => (v && v !== 'N/A' ? v : null);
  return {
    name: m.name,
    description: m.description,
    logoUrl: m.logoUrl || null,
    telegramFileId: m.telegramFileId ?? null,
    twitterLink: link(m.twitterLink),
    telegramLink: link(m.telegramLink),
    websiteLink: link(m.websiteLink),
  };
}

export interface IssuerState {
  blackholed: boolean;
  requireAuth: boolean;
}

export interface ListingDeps {
  tokens: TokenRegistry;
  platform: Platform;
}

export class ListingService {
  constructor(private readonly deps: ListingDeps) {}

  private client(): Client {
    const client = this.deps.platform.connection?.client;
    if (!client) throw ledgerUnavailable();
    return client;
  }

  /**
   * Runs a ledger read about the issuer `account`: an unknown account is the 400 naming it that
   * every route answers (docs/server-conventions.md), never a 502.
   */
  private read<T>(account: string, fn: (client: Client) => Promise<T>): Promise<T> {
    const client = this.client();
    return aboutAccount(account, 'issuer', () => fn(client));
  }

  /** The network's configured RLUSD issuer (the platform's own on the stand-alone ledger). */
  rlusdIssuer(): Promise<string | undefined> {
    return rlusdIssuer(this.deps.platform.database.db, this.deps.platform.config.XRPL_NETWORK);
  }

  /** True when `address` is one of the user's own (live) custodial wallets. */
  async ownsWallet(userId: number, address: string): Promise<boolean> {
    const [row] = await this.deps.platform.database.db
      .select({ id: wallets.id })
      .from(wallets)
      .where(and(eq(wallets.userId, userId), eq(wallets.address, address), isNull(wallets.archivedAt)))
      .limit(1);
    return row !== undefined;
  }

  /** Refuses XRP, LP codes, another issuer's RLUSD code and (for users) the RLUSD issuer itself. */
  async assertListable(issuer: string, currency: string, admin: boolean): Promise<void> {
    const refusal = listingRefusal(issuer, currency, await this.rlusdIssuer(), admin);
    if (refusal) {
      throw fieldError('currency', refusal);
    }
  }

  /** The currencies `account` issues with the amount outstanding (gateway_balances, validated ledger). */
  async issuedTokens(account: string): Promise<IssuedToken[]> {
    const result = await this.read(
      account,
      async (client) =>
        (
          await client.request({
            command: 'gateway_balances',
            account,
            ledger_index: 'validated',
          })
        ).result,
    );
    const outstanding = new Map<string, Decimal>();
    const add = (currency: string, value: string) =>
      outstanding.set(currency, (outstanding.get(currency) ?? new Decimal(0)).plus(value));
    for (const [currency, value] of Object.entries(result.obligations ?? {})) add(currency, value);
    // Frozen lines are still owed: rippled reports them apart from the obligations.
    const frozen = (
      result as { frozen_balances?: Record<string, Array<{ currency: string; value: string }>> }
    ).frozen_balances;
    for (const lines of Object.values(frozen ?? {})) {
      for (const line of lines) add(line.currency, line.value);
    }
    return [...outstanding]
      .filter(([, value]) => value.gt(0))
      .map(([currency, value]) => ({
        currency,
        ascii: currencyToTicker(currency),
        hex: currencyHex(currency),
        value: value.toFixed(),
      }))
      .sort((a, b) => a.ascii.localeCompare(b.ascii));
  }

  /** Blackholed and RequireAuth as the ledger says now (the rule: `ledger/account-root.ts`). */
  async issuerState(account: string): Promise<IssuerState> {
    const facts = await this.read(account, (client) => readIssuerFacts(client, account));
    return { blackholed: facts.blackholed, requireAuth: facts.requireAuth };
  }

  /** The ledger code the request names (currency, token_hex or ticker), if any. */
  private requestedCurrency(body: ListTokenRequest): string | undefined {
    if (body.currency) return body.currency;
    if (body.token_hex) return body.token_hex;
    if (!body.ticker) return undefined;
    try {
      return tickerToCurrency(body.ticker);
    } catch {
      throw fieldError('ticker', LISTING_MESSAGES.currency);
    }
  }

  private async assertNotListed(issuer: string, currency: string): Promise<void> {
    if (await this.deps.tokens.byIssuer(issuer, currency)) {
      throw conflict(LISTING_MESSAGES.alreadyListed);
    }
  }

  /** The logo is an upload of ours, and no other token's (one token, one logo: issue 35). */
  async assertStoredLogo(url: string, tokenId?: number): Promise<void> {
    if (!(await isStoredUpload(this.deps.platform.database.db, url))) {
      throw fieldError('logoUrl', LISTING_MESSAGES.logoUrl);
    }
    if ((await this.deps.tokens.logoTakenBy(url, tokenId)) !== undefined)
      throw fieldError('logoUrl', IDENTITY_MESSAGES.logoInUse);
  }

  /** The door's identity rules for a name (and the ledger ticker) of this token: 400 naming the field. */
  async assertIdentity(
    door: 'listing' | 'rename',
    t: { ticker: string; name: string; issuer: string; currency: string },
  ) {
    const refusal = await this.deps.tokens.identityRefusal({ door, ...t });
    if (refusal) throw fieldError(refusal.field, refusal.message);
  }

  /** When the token appeared on the ledger (its first trust line); null when history does not reach it. */
  private async ledgerCreatedAt(issuer: string, currency: string): Promise<Date | null> {
    try {
      return await firstTrustLineTime(this.client(), issuer, currency);
    } catch {
      // A server without that history: the listing time stands in (docs/token-identity.md).
      return null;
    }
  }

  /**
   * Lists (issuer, currency) for `userId`. Supply, blackhole status and the created date come from
   * the ledger (an admin may set the date); the admin-only flags are applied only for admins. The
   * listing is verified when the issuer is one of the lister's own wallets and it does not look like
   * a verified token; otherwise it is listed unverified, its metadata marked as the lister's.
   */
  async list(userId: number, admin: boolean, body: ListTokenRequest): Promise<TokenRow> {
    const issuer = body.issuer_address;
    const requested = this.requestedCurrency(body);
    // Cheap refusals first: no ledger read is needed to say so.
    if (requested) {
      await this.assertListable(issuer, requested, admin);
      await this.assertNotListed(issuer, requested);
    }

    const issued = await this.issuedTokens(issuer);
    if (issued.length === 0) throw badRequest(LISTING_MESSAGES.issuesNothing);
    let token: IssuedToken | undefined;
    if (requested) {
      token = issued.find((t) => t.currency === requested || t.hex === currencyHex(requested));
      if (!token) throw badRequest(LISTING_MESSAGES.currencyNotIssued);
    } else if (issued.length === 1) {
      token = issued[0]!;
    } else {
      throw badRequest(LISTING_MESSAGES.pickCurrency);
    }
    if (!requested) {
      await this.assertListable(issuer, token.currency, admin);
      await this.assertNotListed(issuer, token.currency);
    }
    const ticker = currencyToTicker(token.currency);
    await this.assertIdentity('listing', { ticker, name: body.name, issuer, currency: token.currency });
    if (body.logoUrl) await this.assertStoredLogo(body.logoUrl);

    const state = await this.issuerState(issuer);
    const db = this.deps.platform.database.db;
    const ownWallet = await this.ownsWallet(userId, issuer);
    const platformListing = admin && issuer === (await this.rlusdIssuer());
    const proven = ownWallet || platformListing;
    const createdAt =
      admin && body.created_at
        ? new Date(body.created_at.length === 10 ? `${body.created_at}T00:00:00Z` : body.created_at)
        : ((await this.ledgerCreatedAt(issuer, token.currency)) ?? new Date());
    const adminFlags = admin
      ? {
          isNew: body.is_new,
          isMarketListed: body.is_market_listed,
          isMarketReady: body.is_market_ready,
          isActive: body.is_active,
        }
      : {};
    const row = await this.deps.tokens.insert({
      ticker,
      currency: token.currency,
      issuerAddress: issuer,
      supply: token.value,
      ...metadataColumns(body),
      isBlackholed: state.blackholed,
      requireAuth: state.requireAuth,
      source: 'listing',
      listedByUserId: userId,
      createdAt,
      // The marks (a reserved identity worn, a same-ticker token with more ledger history) are set
      // by the registry's ranking right after the insert; a proof is never undone by them.
      verified: proven,
      verifiedBy: platformListing ? 'platform' : ownWallet ? 'wallet' : null,
      verifiedAt: proven ? new Date() : null,
      controllerUserId: ownWallet ? userId : null,
      metadataBy: proven ? (platformListing ? 'admin' : 'issuer') : admin ? 'admin' : 'lister',
      // undefined keeps the table's default.
      ...Object.fromEntries(Object.entries(adminFlags).filter(([, v]) => v !== undefined)),
    });
    // Two listings of one token at once: the unique index keeps the first.
    if (!row) throw conflict(LISTING_MESSAGES.alreadyListed);
    const marked = (await this.deps.tokens.byId(row.id)) ?? row;
    await db.insert(tokenIdentityEvents).values({
      tokenId: row.id,
      userId,
      action: 'list',
      method: row.verifiedBy,
      after: {
        verified: marked.verified,
        lookalike_of: marked.lookalikeOf,
        metadata_by: marked.metadataBy,
        controllerUserId: marked.controllerUserId,
      },
    });
    return marked;
  }
}
