// Market trades from custodial wallets: a quote is the trade itself simulated against the open
// ledger from the same wallet (rippled's `simulate`: book and pool together, as the payment engine
// executes them), and the swap submits that payment with the slippage floor as DeliverMin. Where the
// ledger has Batch, a trade through an AMM pair and its platform fee's payment are one all-or-nothing
// Batch (a trade that fails charges nothing, one that fills pays its fee); otherwise (and for a token
// on its bonding curve, a market without a pool) the fee is a separate payment after the trade
// validates, made by a persisted job (once). docs/batch-in-the-app.md.
//
// The service in parts by what they do, each building on the one before: trading-base.ts (wallet,
// market, simulation, checks), trust-line.ts, quote.ts, market-order.ts, limit-order.ts.
import { LimitOrders } from './limit-order';

export type { TradingDeps } from './trading-base';

export class TradingService extends LimitOrders {}
