import { currencyToTicker, formatToken, type Airdrop, Decimal } from '@ledgerpad/shared';
import { availableXrp } from '../../lib/wallet-funds';

// The airdrop pages' pure rules (spec 001 §3–§5): how many users an allocation serves, whether it
// fits the wallet's balance, what is left over, and the board's countdown and amount texts.

const AMOUNT = /^(?:0|[1-9]\d*)(?:\.\d+)?$/;

/** A positive decimal from text, or undefined for anything else (half-typed input included). */
function positive(value: string | null | undefined): Decimal | undefined {
  const v = (value ?? '').trim();
  if (!AMOUNT.test(v)) return undefined;
  const d = new Decimal(v);
  return d.gt(0) ? d : undefined;
}

export interface Recipients {
  /** The most users the allocation pays: floor(total / fixed), or floor(total / min) in random mode. */
  max: number;
  /** Random mode: the estimated range of users, floor(total / max) .. floor(total / min). */
  range?: { low: number; high: number };
}

/** The computed max recipients (spec §3); undefined until the amounts make sense. */
export function recipients(input: {
  perUserType: 'fixed' | 'random';
  total: string;
  fixedAmount?: string;
  randomMin?: string;
  randomMax?: string;
}): Recipients | undefined {
  const total = positive(input.total);
  if (!total) return undefined;
  if (input.perUserType === 'fixed') {
    const fixed = positive(input.fixedAmount);
    if (!fixed) return undefined;
    return { max: total.div(fixed).floor().toNumber() };
  }
  const min = positive(input.randomMin);
  const max = positive(input.randomMax);
  if (!min || !max || !max.gt(min)) return undefined;
  const high = total.div(min).floor().toNumber();
  return { max: high, range: { low: total.div(max).floor().toNumber(), high } };
}

/** Fixed mode: the tokens no claim can take (total − max × fixed); they return when it ends. */
export function leftover(total: string, fixedAmount: string): string | undefined {
  const t = positive(total);
  const f = positive(fixedAmount);
  if (!t || !f) return undefined;
  const rest = t.minus(t.div(f).floor().mul(f));
  return rest.gt(0) ? rest.toFixed() : undefined;
}

export type BalanceCheck =
  | { ok: true; available: string }
  | { ok: false; available: string }
  /** The already-allocated amount is not known: the allocation may exceed the balance. */
  | { ok: 'unknown'; available: string };

/** Total plus what the wallet's pending airdrops already allocated must not exceed its balance (§5). */
export function checkBalance(total: string, allocated: string | undefined, balance: string): BalanceCheck {
  const held = positive(balance) ?? new Decimal(0);
  if (allocated === undefined) {
    const t = positive(total);
    return { ok: t && t.gt(held) ? false : 'unknown', available: held.toFixed() };
  }
  const free = Decimal.max(held.minus(positive(allocated) ?? 0), 0);
  const t = positive(total);
  return { ok: !t || t.lte(free), available: free.toFixed() };
}

/** Available XRP (balance above the reserve, the shared rule) covers the airdrop fee. */
export function coversFee(balance: string, reserve: string, fee: string): boolean {
  return new Decimal(availableXrp({ balance, ledgerReserve: reserve })).gte(fee || '0');
}

/** The deadline is a real moment after `now`. */
export function deadlineOk(deadline: string, now: number): boolean {
  const t = new Date(deadline).getTime();
  return Number.isFinite(t) && t > now;
}

/** 'Ends in 2d 3h 4m', minute resolution; 'Expired' once the deadline passed. */
export function countdown(expiry: string, now: number): string {
  const ms = new Date(expiry).getTime() - now;
  if (!Number.isFinite(ms) || ms <= 0) return 'Expired';
  const minutes = Math.max(1, Math.ceil(ms / 60_000));
  const d = Math.floor(minutes / 1440);
  const h = Math.floor((minutes % 1440) / 60);
  const m = minutes % 60;
  const parts = d > 0 ? [`${d}d`, `${h}h`, `${m}m`] : h > 0 ? [`${h}h`, `${m}m`] : [`${m}m`];
  return `Ends in ${parts.join(' ')}`;
}

/** The token's display name (hex codes decoded). */
export const tokenName = (a: Pick<Airdrop, 'token_code'>) => currencyToTicker(a.token_code);

/** A token amount with thousands separators, digits as given (up to 15 significant). */
export const grouped = (value: string): string => formatToken(value);

/** The per-claim amount: fixed, or the random range 'min–max'. */
export function perClaim(a: Pick<Airdrop, 'fixed_amount' | 'min_amount' | 'max_amount'>): string {
  if (a.fixed_amount) return grouped(a.fixed_amount);
  if (a.min_amount && a.max_amount) return `${grouped(a.min_amount)}–${grouped(a.max_amount)}`;
  return '—';
}

/** The board's state of one airdrop for the signed-in caller. */
export function cardState(
  a: Pick<Airdrop, 'status' | 'has_claimed' | 'expiry' | 'claimed_count' | 'max_claims' | 'is_creator'>,
  now: number,
) {
  if (a.has_claimed) return 'claimed' as const;
  // The creator funded it: the server refuses their claim, so none is offered (issue 39).
  if (a.is_creator) return 'own' as const;
  if (a.status === 'expired' || new Date(a.expiry).getTime() <= now) return 'expired' as const;
  if (a.status === 'closed' || a.claimed_count >= a.max_claims) return 'closed' as const;
  return 'active' as const;
}
