import type { BookOffer } from 'xrpl';
import { AppError } from '../../lib/errors';
import type { Platform } from '../../platform';
import { Decimal } from './trades';

// GET /api/wallets/open-orders/{issuer}/{ticker}: the token's XRP order book, top 10 per side, in
// XRP per token, without dust (spec 000 §9: rows below 1e-10 are hidden).

const TOP = 10;
const DUST = new Decimal('1e-10');

export interface BookRow {
  price: string;
  amount: string;
}

type Amount = string | { value: string };
const xrp = (a: Amount) => new Decimal(typeof a === 'string' ? a : a.value).div(1_000_000);
const iou = (a: Amount) => new Decimal(typeof a === 'string' ? a : a.value);

function rows(offers: BookOffer[], tokenSide: 'gets' | 'pays'): BookRow[] {
  const out: BookRow[] = [];
  for (const o of offers) {
    // What is left of a partly filled or partly funded offer.
    const gets = (o.taker_gets_funded ?? o.TakerGets) as Amount;
    const pays = (o.taker_pays_funded ?? o.TakerPays) as Amount;
    const tokens = tokenSide === 'gets' ? iou(gets) : iou(pays);
    const xrpAmount = tokenSide === 'gets' ? xrp(pays) : xrp(gets);
    if (tokens.lt(DUST) || xrpAmount.lte(0)) continue;
    out.push({ price: xrpAmount.div(tokens).toSignificantDigits(15).toFixed(), amount: tokens.toFixed() });
    if (out.length >= TOP) break;
  }
  return out;
}

export async function openOrders(
  platform: Pick<Platform, 'connection'>,
  issuer: string,
  currency: string,
): Promise<{ buyOrders: BookRow[]; sellOrders: BookRow[] }> {
  const client = platform.connection?.client;
  if (!client)
    throw new AppError('LEDGER_UNAVAILABLE', 'The XRP Ledger is not reachable right now. Please try again.');
  const token = { currency, issuer };
  const [sells, buys] = await Promise.all([
    // Sell orders: their owners give the token and want XRP.
    client.request({
      command: 'book_offers',
      taker_gets: token,
      taker_pays: { currency: 'XRP' },
      limit: 50,
      ledger_index: 'validated',
    }),
    // Buy orders: their owners give XRP and want the token.
    client.request({
      command: 'book_offers',
      taker_gets: { currency: 'XRP' },
      taker_pays: token,
      limit: 50,
      ledger_index: 'validated',
    }),
  ]);
  return { sellOrders: rows(sells.result.offers, 'gets'), buyOrders: rows(buys.result.offers, 'pays') };
}
