import type { Client, Currency } from 'xrpl';
import {
  Decimal,
  RLUSD_CURRENCY_HEX,
  ammSwapOut,
  amountValue,
  dropsToDecimal,
  platformFee,
  type LedgerAmount,
} from '@ledgerpad/shared';

// What selling a whole holding now would return (issue 39, docs/positions.md "Realisable value"):
// a position larger than its market's depth reads as such, not at spot × balance.

/** The market a sell of the token takes, as far as the sell needs it. */
export type SellDepth =
  | {
      kind: 'pool';
      quote: 'XRP' | 'RLUSD';
      /** The pool's token side and quote side (XRP in drops: the ledger swaps whole drops). */
      poolTokens: string;
      poolQuote: string;
      /** The pool's TradingFee, 1/100,000. */
      tradingFee: number;
    }
  | {
      kind: 'book';
      quote: 'XRP' | 'RLUSD';
      /** The bids in the order a sell takes them: tokens each takes, quote it gives (funded). */
      offers: Array<{ takes: Decimal; gives: Decimal; curve: boolean }>;
    };

/** How many bids a book walk reads: a curve's ladder is far shorter (docs/bonding-curve.md). */
const BOOK_LIMIT = 300;

/**
 * The token's sell side on the validated ledger: its pool with the quote asset, else the book's bids
 * (a bonding curve's ladder, or orders). `curveAccount`: the token's curve while it trades on it —
 * its bids carry the platform's fee inside their prices (the trading module charges none on them).
 * Undefined when nothing buys the token.
 */
export async function sellDepth(
  client: Client,
  token: { currency: string; issuer: string },
  quote: { kind: 'XRP' } | { kind: 'RLUSD'; issuer: string },
  curveAccount: string | undefined,
): Promise<SellDepth | undefined> {
  const q: Currency =
    quote.kind === 'XRP' ? { currency: 'XRP' } : { currency: RLUSD_CURRENCY_HEX, issuer: quote.issuer };
  const t: Currency = { currency: token.currency, issuer: token.issuer };
  try {
    const r = await client.request({ command: 'amm_info', asset: q, asset2: t, ledger_index: 'validated' });
    const a = r.result.amm.amount as LedgerAmount;
    const b = r.result.amm.amount2 as LedgerAmount;
    // amm_info may answer its two sides in either order.
    const tokenFirst = typeof a !== 'string' && a.currency === token.currency && a.issuer === token.issuer;
    const [tok, quo] = tokenFirst ? [a, b] : [b, a];
    return {
      kind: 'pool',
      quote: quote.kind,
      poolTokens: amountValue(tok).toFixed(),
      poolQuote: typeof quo === 'string' ? quo : quo.value,
      tradingFee: r.result.amm.trading_fee,
    };
  } catch {
    // No pool: the book.
  }
  try {
    const r = await client.request({
      command: 'book_offers',
      taker_gets: q,
      taker_pays: t,
      limit: BOOK_LIMIT,
      ledger_index: 'validated',
    });
    const offers = r.result.offers.map((o) => ({
      takes: amountValue((o.taker_pays_funded ?? o.TakerPays) as LedgerAmount),
      gives: amountValue((o.taker_gets_funded ?? o.TakerGets) as LedgerAmount),
      curve: curveAccount !== undefined && o.Account === curveAccount,
    }));
    return offers.length ? { kind: 'book', quote: quote.kind, offers } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * What selling `balance` tokens into `depth` returns, in XRP, net of the platform's fee on the sale
 * (the money layer's one fee rule, as the trading module charges it: its fee on the quote received, none on what a bonding curve paid —
 * the curve's prices carry it). A pool sale is the ledger's own swap-in (shared `ammSwapOut`, with
 * rippled's rounding; XRP out in whole drops). A book sale walks the bids at their prices. An
 * RLUSD result is converted at `xrpPerRlusd` (0 without one). Rounded down to 6 decimals.
 */
export function realisableXrp(
  depth: SellDepth | undefined,
  balance: Decimal,
  feePercent: string,
  xrpPerRlusd: Decimal | null,
): Decimal {
  if (!depth || balance.lte(0)) return new Decimal(0);
  let out: Decimal;
  let charged: Decimal;
  if (depth.kind === 'pool') {
    const raw = ammSwapOut(depth.poolTokens, depth.poolQuote, balance, depth.tradingFee);
    out = depth.quote === 'XRP' ? dropsToDecimal(raw.floor().toFixed(0)) : raw;
    charged = out;
  } else {
    out = new Decimal(0);
    charged = new Decimal(0);
    let left = balance;
    for (const o of depth.offers) {
      if (left.lte(0)) break;
      if (o.takes.lte(0)) continue;
      const take = Decimal.min(left, o.takes);
      const got = o.gives.mul(take).div(o.takes);
      out = out.plus(got);
      if (!o.curve) charged = charged.plus(got);
      left = left.minus(take);
    }
  }
  const net = Decimal.max(
    0,
    out.minus(platformFee(charged, feePercent, depth.quote === 'XRP' ? 'xrp' : 'iou')),
  );
  const inXrp = depth.quote === 'XRP' ? net : xrpPerRlusd ? net.mul(xrpPerRlusd) : new Decimal(0);
  return inXrp.toDecimalPlaces(6, Decimal.ROUND_DOWN);
}
