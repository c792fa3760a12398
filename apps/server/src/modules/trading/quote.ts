import {
  Decimal,
  amountValue,
  minimumReceived,
  type LedgerAmount,
  type QuoteView,
  type SwapBatchQuote,
  type SwapBatchQuoteItem,
  type TradeSide,
  type quoteRequestSchema,
  type swapBatchSchema,
  dropsToXrp,
  curveFeeInside,
  microsToUnits,
  unitsToMicros,
  type AntiSniperQuote,
  serverSigns,
  type WalletKind,
} from '@ledgerpad/shared';
import type { BookOffersRequest, IssuedCurrency } from 'xrpl';
import { AppError } from '../../lib/errors';
import type { Parsed } from '../../lib/validation';
import { sequentialShares, type MarketDepth } from './plan';
import { fixed6, plain, type Market, type WalletRow } from './trading-base';
import { TrustLines } from './trust-line';

/** What a trade and its fee payment cost in network fees: two transactions, or one Batch of both. */
const TRADE_AND_FEE_BATCH = ['Payment', 'Payment'];

// Quotes: a wallet's trade simulated on the open ledger before the click, one wallet or a batch.
export abstract class Quotes extends TrustLines {
  /**
   * The anti-sniper line of a buy on a curve in its window (issue 37): the rate, the time left and
   * the surcharge inside what the buy pays the curve. The curve's sell offers ask V' + ⌊V'·f⌋ with
   * V' = V + ⌊V·r⌋ (shared `desiredLadder`), so the surcharge inside V' = paid − fee is read back as
   * the fee is (`curveFeeInside`): within a micro per crossed offer.
   */
  private async antiSniperLine(
    m: Market,
    onCurve: Decimal,
    feeInPrice: Decimal,
  ): Promise<AntiSniperQuote | undefined> {
    const now = await this.deps.curves?.antiSniper?.(m.token.issuer, m.token.currency);
    if (!now) return undefined;
    const priced = unitsToMicros(onCurve) - unitsToMicros(feeInPrice);
    return {
      percent: new Decimal(now.ppm.toString()).div(10_000).toFixed(),
      endsInSeconds: now.endsInSeconds,
      fee: plain(microsToUnits(curveFeeInside('sell', priced, now.ppm))),
    };
  }

  /**
   * Without a pool, the price the trade's first fill would pay (quote asset per token): the best
   * offer on the side it takes — a bonding curve's next chunk (its price with the curve's fee in
   * it, as the trade pays it) or the book's best order. A curve or book trade's impact is measured
   * against it (issue 39), as a pool trade's is against the pool's spot.
   */
  private async nextOfferPrice(m: Market, type: TradeSide): Promise<Decimal | null> {
    const [best] = (await this.bookOffers(m, type, 1)) ?? [];
    if (!best) return null;
    // A buy pays the quote asset for the token; a sell pays the token for the quote asset.
    const [q, t] = type === 'BUY' ? [best.takes, best.gives] : [best.gives, best.takes];
    return t.gt(0) && q.gt(0) ? q.div(t) : null;
  }

  /**
   * The book a trade takes, best first, each offer as what the taker pays (`takes`) and gets
   * (`gives`), funded amounts where the ledger gives them; null when the ledger cannot answer.
   */
  private async bookOffers(
    m: Market,
    type: TradeSide,
    limit: number,
  ): Promise<{ takes: Decimal; gives: Decimal }[] | null> {
    const { token, quote } = marketAssets(m);
    try {
      const request: BookOffersRequest = {
        command: 'book_offers',
        // A buy takes offers giving the token; a sell takes offers giving the quote asset.
        taker_gets: type === 'BUY' ? token : quote,
        taker_pays: type === 'BUY' ? quote : token,
        limit,
        ledger_index: 'current',
      };
      const r = await this.reader.request(request);
      return r.result.offers.map((o) => ({
        takes: amountValue((o.taker_pays_funded ?? o.TakerPays) as LedgerAmount),
        gives: amountValue((o.taker_gets_funded ?? o.TakerGets) as LedgerAmount),
      }));
    } catch {
      return null;
    }
  }

  /** The quote's wallet from the kept list; a wallet made since the list was kept is read anew. */
  private async quoteWallet(userId: number, address: string | undefined): Promise<WalletRow> {
    const all = await this.kept(`wallets:${userId}`, () => this.deps.wallets.list(userId));
    return (address ? all.find((w) => w.address === address) : all[0]) ?? this.wallet(userId, address);
  }

  async quote(userId: number, q: Parsed<typeof quoteRequestSchema>): Promise<QuoteView> {
    // Independent reads side by side, each once and kept per ledger: a quote is asked for on every
    // keystroke pause, and each of these reads is a query (PGlite answers one at a time).
    const [wallet, m, feePercent, curve] = await Promise.all([
      this.quoteWallet(userId, q.wallet),
      this.kept(`market:${q.issuer}:${q.token}:${q.baseAsset ?? ''}`, () =>
        this.market(q.issuer, q.token, q.baseAsset),
      ),
      this.kept(`fee:${userId}`, () => this.deps.recorder.feePercent(userId)),
      this.kept(`curve:${q.issuer}:${q.token}`, async () =>
        this.deps.curves?.activeCurveAccount(q.issuer, q.token),
      ),
    ]);
    const amount = (q.tradeType === 'BUY' ? q.amountXrp : q.amountToken)!;
    const [sim, spot, next] = await Promise.all([
      this.simulate(wallet.address, q.tradeType, m, amount),
      this.spotPrice(m),
      this.nextOfferPrice(m, q.tradeType),
    ]);
    if (sim.received.lte(0) || sim.spent.lte(0)) throw await this.noLiquidity(m, q.tradeType);
    const tokens = q.tradeType === 'BUY' ? sim.received : sim.spent;
    const notional = q.tradeType === 'BUY' ? sim.spent : sim.received;
    const price = notional.div(tokens);
    // Impact against the pool's spot; without a pool, against the first offer the trade takes (a
    // curve's next price, or the book's best): a curve buy is warned and guarded as a pool buy is.
    const reference = spot ?? next;
    const impactAgainst = spot ? 'pool' : next ? (curve ? 'curve' : 'book') : undefined;
    const impact =
      reference && reference.gt(0)
        ? Decimal.max(
            0,
            (q.tradeType === 'BUY' ? price.minus(reference) : reference.minus(price)).div(reference).mul(100),
          ).toDecimalPlaces(2)
        : null;
    const fees = await this.deps.recorder.feeBreakdown(
      userId,
      m.token,
      m.quote,
      q.tradeType,
      notional,
      sim.changes ?? [],
      { feePercent, curve },
    );
    // Every transaction the swap signs pays the network fee: the trust line a buy opens first, the
    // trade, and the fee payment after it — or, where the trade and its fee go in one Batch, that
    // Batch's fee (twice the base fee plus each inner one's). A new trust line locks one owner reserve.
    const txFee = sim.feeDrops ?? this.deps.submissions.reserves.baseFee;
    // A self-custody wallet's swap is one Batch wherever the ledger has Batch (market-order.ts
    // `swapIntent`; a wallet app that cannot sign one falls back to the sequence, which costs less);
    // a custodial one where its trade crosses a pool and no curve.
    const batch =
      fees.fee.gt(0) &&
      (!serverSigns(wallet.kind as WalletKind)
        ? ((await this.deps.feeInBatch?.()) ?? false)
        : await this.inBatch(m, { curve, pool: spot !== null }));
    const antiSniper =
      q.tradeType === 'BUY' && fees.onCurve.gt(0)
        ? await this.antiSniperLine(m, fees.onCurve, fees.feeInPrice)
        : undefined;
    // A custodial new holder's line goes in the trade's own Batch where custodial swaps sign
    // Batches (market-order.ts `prepareTrade`, issue 40): that Batch's fee, with the fee job's
    // payment after it when the fee is not inside.
    const lineInBatch =
      sim.opensLine === true &&
      serverSigns(wallet.kind as WalletKind) &&
      ((await this.deps.feeInBatch?.()) ?? false);
    const networkDrops = lineInBatch
      ? this.deps.submissions.batchFee(['TrustSet', ...(batch ? TRADE_AND_FEE_BATCH : ['Payment'])]) +
        (!batch && fees.fee.gt(0) ? txFee : 0n)
      : (sim.opensLine ? txFee : 0n) +
        (batch
          ? this.deps.submissions.batchFee(TRADE_AND_FEE_BATCH)
          : txFee * (1n + (fees.fee.gt(0) ? 1n : 0n)));
    return {
      status: 'success',
      tokenAmountRounded: fixed6(sim.received),
      spend: plain(sim.spent),
      receive: plain(sim.received),
      quote: m.quoteName,
      effectivePrice: plain(price),
      spotPrice: reference ? plain(reference) : null,
      priceImpactPercent: impact ? impact.toFixed(2) : null,
      ...(impactAgainst ? { impactAgainst } : {}),
      fee: plain(fees.fee),
      partial: sim.spent.lt(amount),
      feePercent,
      feeInPrice: plain(fees.feeInPrice),
      ...(fees.curveFeePercent ? { curveFeePercent: fees.curveFeePercent } : {}),
      ...(antiSniper ? { antiSniper } : {}),
      networkFee: dropsToXrp(networkDrops),
      reserve: dropsToXrp(sim.opensLine ? this.deps.submissions.reserves.reserveIncrement : 0n),
      opensTrustLine: sim.opensLine === true,
    };
  }

  /**
   * POST /api/swap/batch/quote (issue 39): each wallet's own quote before the click — its amount,
   * the platform fee, network fees, a new trust line and its reserve — with what it receives after
   * the wallets before it traded (`sequentialShares` on the market's depth scales its own simulated
   * figure), and the floor its trade will sign: `minimumReceived` of that, the same shared rule the
   * batch's trade applies to the `expected` the screen sends back.
   */
  async quoteBatch(userId: number, b: Parsed<typeof swapBatchSchema>): Promise<SwapBatchQuote> {
    const m = await this.market(b.issuer, b.token, b.baseAsset);
    const quotes = await Promise.all(
      b.orders.map(async (o) => {
        try {
          return await this.quote(userId, {
            issuer: b.issuer,
            token: b.token,
            tradeType: b.type,
            ...(b.type === 'BUY' ? { amountXrp: o.amount } : { amountToken: o.amount }),
            ...(b.baseAsset ? { baseAsset: b.baseAsset } : {}),
            wallet: o.walletAddress,
          });
        } catch (err) {
          if (!(err instanceof AppError)) throw err;
          return err.message;
        }
      }),
    );
    // Only the wallets that can trade move the market for the ones after them.
    const depth = await this.marketDepth(m, b.type);
    const trading = b.orders.filter((_, i) => typeof quotes[i] !== 'string');
    const shares = depth
      ? sequentialShares(
          depth,
          trading.map((o) => o.amount),
        )
      : [];
    let k = 0;
    const wallets: SwapBatchQuoteItem[] = b.orders.map((o, i) => {
      const q = quotes[i]!;
      if (typeof q === 'string') return { walletAddress: o.walletAddress, amount: o.amount, error: q };
      const share = shares[k++] ?? new Decimal(1);
      const receive = new Decimal(q.receive).mul(share);
      const received =
        m.quote.kind === 'xrp' && b.type === 'SELL'
          ? receive.toDecimalPlaces(6, Decimal.ROUND_DOWN)
          : receive.toSignificantDigits(15, Decimal.ROUND_DOWN);
      const tokens = b.type === 'BUY' ? received : new Decimal(q.spend);
      const notional = b.type === 'BUY' ? new Decimal(q.spend) : received;
      const price = tokens.gt(0) ? notional.div(tokens) : new Decimal(q.effectivePrice);
      const spot = q.spotPrice ? new Decimal(q.spotPrice) : null;
      const impact =
        spot && spot.gt(0)
          ? Decimal.max(0, (b.type === 'BUY' ? price.minus(spot) : spot.minus(price)).div(spot).mul(100))
          : null;
      const quote: QuoteView = {
        ...q,
        receive: plain(received),
        tokenAmountRounded: fixed6(received),
        effectivePrice: plain(price),
        priceImpactPercent: impact ? impact.toFixed(2) : q.priceImpactPercent,
        // A sell's fee is on what it receives.
        ...(b.type === 'SELL' ? { fee: plain(this.feeOn(new Decimal(q.fee), share, m)) } : {}),
      };
      return {
        walletAddress: o.walletAddress,
        amount: o.amount,
        quote,
        minimumReceived: minimumReceived(
          quote.receive,
          b.slippage,
          b.type === 'SELL' && m.quote.kind === 'xrp',
        ),
      };
    });
    return { status: 'success', wallets };
  }

  /** A sell's fee scaled with what it receives: XRP down to the drop, an issued amount to 15 digits. */
  private feeOn(fee: Decimal, share: Decimal, m: Market): Decimal {
    const scaled = fee.mul(share);
    return m.quote.kind === 'xrp'
      ? scaled.toDecimalPlaces(6, Decimal.ROUND_DOWN)
      : scaled.toSignificantDigits(15);
  }

  /** The pool (reserves and fee, the trade's input side first) or, without one, the book it takes. */
  private async marketDepth(m: Market, type: TradeSide): Promise<MarketDepth | null> {
    const { token, quote } = marketAssets(m);
    try {
      const r = await this.reader.request({
        command: 'amm_info',
        asset: quote,
        asset2: token,
        ledger_index: 'current',
      });
      const q = amountValue(r.result.amm.amount as LedgerAmount);
      const t = amountValue(r.result.amm.amount2 as LedgerAmount);
      const feeFraction = new Decimal(r.result.amm.trading_fee).div(100_000);
      return type === 'BUY'
        ? { kind: 'pool', input: q, output: t, feeFraction }
        : { kind: 'pool', input: t, output: q, feeFraction };
    } catch {
      // No pool: the book (a bonding curve's ladder, or orders).
    }
    const offers = await this.bookOffers(m, type, 200);
    return offers && { kind: 'book', offers };
  }
}

/** The market's two assets as the ledger's book and pool requests name them. */
function marketAssets(m: Market): { token: IssuedCurrency; quote: IssuedCurrency | { currency: 'XRP' } } {
  return {
    token: { currency: m.token.currency, issuer: m.token.issuer },
    quote:
      m.quote.kind === 'xrp' ? { currency: 'XRP' } : { currency: m.quote.currency, issuer: m.quote.issuer },
  };
}
