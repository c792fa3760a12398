import {
  Decimal,
  dropsToXrp,
  parseDecimal,
  parseXrpDrops,
  spendableXrp,
  type LedgerReserves,
  type WalletBalance,
  type XrpAction,
} from '@ledgerpad/shared';

// What a wallet can pay with, by the shared money layer's rule (packages/shared/src/money.ts): the
// one definition of spendable XRP on the web. Balances come from POST /api/wallets/balances.

type Funds = Pick<WalletBalance, 'balance' | 'ledgerReserve'> & Partial<Pick<WalletBalance, 'spendable'>>;

/**
 * XRP the server counts as already committed (issue 39): transactions in flight and platform fees
 * still owed (a trade's fee paid by the fee job after it). The server's funds check takes it off the
 * balance; so does every figure here, or ALL IN right after a trade asks for what the server refuses.
 */
const committedDrops = (w: Funds): bigint => parseXrpDrops(w.spendable?.committed ?? '0') ?? 0n;

/** Balance − the reserve it already locks − what is committed, in drops, never below 0: the 'available' XRP people see. */
export function availableDrops(w: Funds): bigint {
  const left = (parseXrpDrops(w.balance) ?? 0n) - (parseXrpDrops(w.ledgerReserve) ?? 0n) - committedDrops(w);
  return left > 0n ? left : 0n;
}

/** The ledger's reserves and network fee as the server sent them with the wallet (undefined for an older answer). */
export function walletReserves(w: Funds): LedgerReserves | undefined {
  const s = w.spendable;
  if (!s) return undefined;
  const reserveBase = parseXrpDrops(s.baseReserve);
  const reserveIncrement = parseXrpDrops(s.ownerReserve);
  const baseFee = parseXrpDrops(s.networkFee);
  return reserveBase === undefined || reserveIncrement === undefined || baseFee === undefined
    ? undefined
    : { reserveBase, reserveIncrement, baseFee };
}

/** Available XRP as text ('12.5'). */
export const availableXrp = (w: Funds): string => dropsToXrp(availableDrops(w));

/**
 * What the wallet can spend on an action in drops: available less the network fees and the new
 * reserves the action itself will burn or lock (the shared `spendableXrp`, with the owner count read
 * back from the wallet's reserve).
 */
export function spendableDrops(
  w: Funds,
  reserves: LedgerReserves,
  action: Pick<XrpAction, 'transactions' | 'newObjects'>,
): bigint {
  const locked = parseXrpDrops(w.ledgerReserve) ?? reserves.reserveBase;
  const owned =
    reserves.reserveIncrement > 0n ? (locked - reserves.reserveBase) / reserves.reserveIncrement : 0n;
  return spendableXrp(
    parseXrpDrops(w.balance) ?? 0n,
    Number(owned > 0n ? owned : 0n),
    reserves,
    action,
    committedDrops(w),
  );
}

/**
 * What the wallet can spend of a token (its ledger code and issuer): the line's balance less the
 * platform fees in it still owed (the server's `requireToken` rule, issue 39); '0' without a line.
 */
export function tokenBalance(
  w: Pick<WalletBalance, 'tokens'> | undefined,
  code: string,
  issuer: string,
): string {
  const t = w?.tokens.find((x) => x.currencyCode === code && x.issuer === issuer);
  if (!t || !parseDecimal(t.value)) return '0';
  const owed = t.owed && parseDecimal(t.owed) ? new Decimal(t.owed) : undefined;
  if (!owed?.gt(0)) return t.value;
  const left = new Decimal(t.value).minus(owed);
  return left.gt(0) ? left.toFixed() : '0';
}

/** Whether the wallet already has a trust line to the token (a buy then opens none). */
export function hasTrustLine(
  w: Pick<WalletBalance, 'trustlines'> | undefined,
  code: string,
  issuer: string,
): boolean {
  return (w?.trustlines ?? []).some((l) => l.currencyCode === code && l.issuer === issuer);
}
