import type { Client } from 'xrpl';
import { RLUSD_CURRENCY_HEX, type QuoteAsset } from '@ledgerpad/shared';
import { requireAccount } from '../../ledger/account-root';
import { badRequest } from '../../lib/errors';
import type { TokenRegistry, TokenRow } from '../tokens';
import type { Asset } from './plan';

/**
 * The other side of a token's market (trading's quote, liquidity's pool base): the one asked for,
 * else the token's listed pair, else XRP. RLUSD needs this network's RLUSD issuer. A token we list
 * is known to the ledger; any other issuer a request names must be an account there — else a 400
 * naming it ("The issuer r… does not exist on the XRP Ledger."), before anything is signed: a swap
 * used to answer 502 and an add-trustline paid for a TrustSet the ledger refused (tecNO_DST).
 */
export async function quoteAssetOf(
  deps: {
    tokens: Pick<TokenRegistry, 'byIssuer'>;
    rlusdIssuer: () => Promise<string | undefined>;
    client: Pick<Client, 'request'>;
  },
  issuer: string,
  currency: string,
  asked: QuoteAsset | undefined,
): Promise<{ listed: TokenRow | undefined; name: QuoteAsset; asset: Asset }> {
  const listed = await deps.tokens.byIssuer(issuer, currency);
  if (!listed) await requireAccount(deps.client, issuer, 'issuer', 'issuer');
  const name: QuoteAsset = asked ?? (listed?.liquidityPair === 'RLUSD' ? 'RLUSD' : 'XRP');
  if (name === 'XRP') return { listed, name, asset: { kind: 'xrp' } };
  const rlusd = await deps.rlusdIssuer();
  if (!rlusd) throw badRequest('RLUSD is not available on this network.');
  return { listed, name, asset: { kind: 'iou', currency: RLUSD_CURRENCY_HEX, issuer: rlusd } };
}
