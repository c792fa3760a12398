import type { PoolState } from './math';
import { Decimal } from '@ledgerpad/shared';

// A wallet's position in a pool (docs/liquidity.md, "LP position"): what it still has deposited,
// what its LP tokens are worth now, and how that compares with simply holding what it deposited,
// split into the fees the pool earned it and the impermanent loss. Pure: the events and the pool
// states come from the ledger (service.ts).
//
// A constant-product pool's invariant per LP token, g = √(A·B) / T, only grows through fees
// (trading fees, the fee of single-asset deposits and withdrawals, burned auction-slot bids). L LP
// tokens are worth 2·A·L/T = 2·g·L·√P at the pool price P = A/B (in the base asset). Had no fee been
// earned since the deposits, they would be worth 2·g₀·L·√P, g₀ the LP-weighted invariant the
// deposits were made at: the difference is the fees earned; the rest of the gap to holding the
// deposited assets is the impermanent loss.

export interface PositionEventInput {
  /** LP tokens the wallet gained (+) or gave (−). */
  lp: Decimal;
  /** What the wallet put into the pool (+) or took out (−) of each side; zero for transfers. */
  base: Decimal;
  token: Decimal;
  /** A transfer or a refund: LP tokens that came without a deposit, valued at the pool's share. */
  unpaid: boolean;
  /** A bid for the auction slot: LP tokens spent, not withdrawn (the deposits stay). */
  spent: boolean;
  /** The pool right after the event. */
  pool: PoolState;
}

export interface Position {
  lpTracked: Decimal;
  depositedBase: Decimal;
  depositedToken: Decimal;
  /** The LP-weighted invariant per LP token the deposits were made at. */
  g0: Decimal;
}

const invariant = (p: PoolState) => p.base.mul(p.token).sqrt().div(p.lpTotal);

/** Folds the events (oldest first) into the position: average cost, LP-weighted g₀. */
export function foldPosition(events: PositionEventInput[]): Position {
  let pos: Position = {
    lpTracked: new Decimal(0),
    depositedBase: new Decimal(0),
    depositedToken: new Decimal(0),
    g0: new Decimal(0),
  };
  for (const e of events) {
    if (e.lp.gt(0)) {
      // LP tokens in: a deposit brings what it paid; a transfer or a refund its share of the pool.
      const share = e.lp.div(e.pool.lpTotal);
      const base = e.unpaid ? e.pool.base.mul(share) : e.base;
      const token = e.unpaid ? e.pool.token.mul(share) : e.token;
      const lp = pos.lpTracked.plus(e.lp);
      pos = {
        lpTracked: lp,
        depositedBase: pos.depositedBase.plus(base),
        depositedToken: pos.depositedToken.plus(token),
        g0: pos.g0.mul(pos.lpTracked).plus(invariant(e.pool).mul(e.lp)).div(lp),
      };
    } else if (e.lp.lt(0) && pos.lpTracked.gt(0)) {
      const out = Decimal.min(e.lp.neg(), pos.lpTracked);
      // A withdrawal or a transfer out takes its share of the deposits; a bid keeps them (its cost
      // shows in the P&L).
      const keep = e.spent ? new Decimal(1) : new Decimal(1).minus(out.div(pos.lpTracked));
      pos = {
        lpTracked: pos.lpTracked.minus(out),
        depositedBase: pos.depositedBase.mul(keep),
        depositedToken: pos.depositedToken.mul(keep),
        g0: pos.g0,
      };
    }
  }
  return pos;
}

export interface PositionFigures {
  share: Decimal;
  currentBase: Decimal;
  currentToken: Decimal;
  value: Decimal;
  depositedBase: Decimal;
  depositedToken: Decimal;
  holdValue: Decimal;
  pnl: Decimal;
  feesEarned: Decimal;
  impermanentLoss: Decimal;
}

/**
 * The position's figures against the pool now, for the wallet's LP balance `lp`. When the events do
 * not account for every LP token (history before the ledger's oldest, LP tokens moved in ways not
 * read), the deposits are scaled to the balance.
 */
export function positionFigures(pos: Position, pool: PoolState, lp: Decimal): PositionFigures {
  const scale = pos.lpTracked.gt(0) ? lp.div(pos.lpTracked) : new Decimal(0);
  const depositedBase = pos.depositedBase.mul(scale);
  const depositedToken = pos.depositedToken.mul(scale);
  const share = lp.div(pool.lpTotal);
  const currentBase = pool.base.mul(share);
  const currentToken = pool.token.mul(share);
  const price = pool.base.div(pool.token);
  const value = currentBase.mul(2);
  const holdValue = depositedBase.plus(depositedToken.mul(price));
  const g0 = pos.lpTracked.gt(0) ? pos.g0 : invariant(pool);
  const noFees = g0.mul(lp).mul(price.sqrt()).mul(2);
  return {
    share,
    currentBase,
    currentToken,
    value,
    depositedBase,
    depositedToken,
    holdValue,
    pnl: value.minus(holdValue),
    feesEarned: value.minus(noFees),
    impermanentLoss: noFees.minus(holdValue),
  };
}
