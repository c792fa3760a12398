import type { BookOffer } from 'xrpl';
import type { BookRow } from '@ledgerpad/shared';
import { ledgerUnavailable } from '../../lib/errors';
import type { Platform } from '../../platform';
import { Decimal, amountValue, ORDER_BOOK_MIN_VALUE, ORDER_BOOK_TOP_N } from '@ledgerpad/shared';

// GET /api/wallets/open-orders/{issuer}/{ticker}: the token's order book against its quote asset
// (XRP, or RLUSD for RLUSD-paired tokens), top 10 per side, priced in the quote per token, without
// dust (spec 000 §9: rows below 1e-10 are hidden).

// The spec's order book: the best ORDER_BOOK_TOP_N per side, offers below ORDER_BOOK_MIN_VALUE dropped.
const DUST = new Decimal(ORDER_BOOK_MIN_VALUE);

type Amount = string | { value: string };
/** XRP amounts are drops on the wire; issued amounts (the token, RLUSD) are decimal values. */
const value = (a: Amount) => amountValue(a);

function rows(offers: BookOffer[], tokenSide: 'gets' | 'pays'): BookRow[] {
  const out: BookRow[] = [];
  for (const o of offers) {
    // What is left of a partly filled or partly funded offer.
    const gets = (o.taker_gets_funded ?? o.TakerGets) as Amount;
    const pays = (o.taker_pays_funded ?? o.TakerPays) as Amount;
    const tokens = tokenSide === 'gets' ? value(gets) : value(pays);
    const quoteAmount = tokenSide === 'gets' ? value(pays) : value(gets);
    if (tokens.lt(DUST) || quoteAmount.lte(0)) continue;
    out.push({ price: quoteAmount.div(tokens).toSignificantDigits(15).toFixed(), amount: tokens.toFixed() });
    if (out.length >= ORDER_BOOK_TOP_N) break;
  }
  return out;
}

export async function openOrders(
  platform: Pick<Platform, 'connection'>,
  issuer: string,
  currency: string,
  /** The token's quote asset: XRP unless it is paired with RLUSD. */
  quote: { currency: 'XRP' } | { currency: string; issuer: string } = { currency: 'XRP' },
): Promise<{ buyOrders: BookRow[]; sellOrders: BookRow[] }> {
  const client = platform.connection?.client;
  if (!client) throw ledgerUnavailable();
  const token = { currency, issuer };
  const [sells, buys] = await Promise.all([
    // Sell orders: their owners give the token and want the quote asset.
    client.request({
      command: 'book_offers',
      taker_gets: token,
      taker_pays: quote,
      limit: 50,
      ledger_index: 'validated',
    }),
    // Buy orders: their owners give the quote asset and want the token.
    client.request({
      command: 'book_offers',
      taker_gets: quote,
      taker_pays: token,
      limit: 50,
      ledger_index: 'validated',
    }),
  ]);
  return { sellOrders: rows(sells.result.offers, 'gets'), buyOrders: rows(buys.result.offers, 'pays') };
}
