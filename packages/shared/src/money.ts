import DecimalBase from 'decimal.js';
import { ALL_IN_FRACTION, DROPS_PER_XRP } from './constants';

// The one money layer (docs/money.md): server and web count money with these and nothing else.
// XRP is an integer of drops (bigint); issued amounts are decimal strings, handled with the one
// configured Decimal below. No money value ever passes through a JavaScript number.

/**
 * The one configured Decimal. Issued amounts carry a 16-digit mantissa at exponents from -96 to
 * +80 (rippled's range), so a sum of 1e80 and 1e-15 needs 96 digits: 100 significant digits keep
 * every sum and product of two amounts exact, and divisions exact well past the 16 digits a ledger
 * keeps. Plain notation always: '0.0000001', never '1e-7' (rippled reads both, people don't).
 */
export const Decimal = DecimalBase.clone({
  precision: 100,
  rounding: DecimalBase.ROUND_HALF_UP,
  toExpNeg: -9e15,
  toExpPos: 9e15,
});
export type Decimal = InstanceType<typeof Decimal>;
/** Anything a Decimal can be made from: a decimal string, a Decimal (never a float in money paths). */
export type DecimalValue = DecimalBase.Value;

/** A ledger `Amount`: XRP as a string of drops, an issued amount as currency, issuer and value. */
export type LedgerAmount = string | { currency: string; issuer: string; value: string };

/** Rounding of a computed amount to what the ledger can carry. */
type Rounding = 'down' | 'up' | 'nearest';

const XRP_TEXT = /^(\d+)(?:\.(\d{1,6}))?$/;
const PLAIN_DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** "12.5" XRP → 12500000n drops. Throws RangeError on more than 6 decimals, signs or non-numbers. */
export function xrpToDrops(xrp: string): bigint {
  const m = XRP_TEXT.exec(xrp.trim());
  if (!m) throw new RangeError('XRP amounts have at most 6 decimals');
  return BigInt(m[1]!) * DROPS_PER_XRP + BigInt((m[2] ?? '').padEnd(6, '0') || '0');
}

/** `xrpToDrops` that answers undefined instead of throwing (form input). */
export function parseXrpDrops(xrp: string): bigint | undefined {
  try {
    return xrpToDrops(xrp);
  } catch {
    return undefined;
  }
}

/** 12500000n → "12.5": plain XRP text, no trailing zeros, no exponent. */
export function dropsToXrp(drops: bigint | string): string {
  const d = typeof drops === 'bigint' ? drops : BigInt(drops);
  const neg = d < 0n;
  const abs = neg ? -d : d;
  const whole = abs / DROPS_PER_XRP;
  const frac = (abs % DROPS_PER_XRP).toString().padStart(6, '0').replace(/0+$/, '');
  return `${neg ? '-' : ''}${whole}${frac ? `.${frac}` : ''}`;
}

/**
 * Millionths of a quote asset ("micros": drops for XRP, 1e-6 RLUSD for the bonding curves) → a
 * Decimal of the asset. The one place the factor 1,000,000 is applied (DROPS_PER_XRP).
 */
export function microsToUnits(micros: bigint | DecimalValue): Decimal {
  return new Decimal(micros.toString()).div(DROPS_PER_XRP.toString());
}

/** A Decimal of a quote asset → whole micros, rounded down unless told otherwise. */
export function unitsToMicros(value: DecimalValue, rounding: Rounding = 'down'): bigint {
  const micros = new Decimal(value).mul(DROPS_PER_XRP.toString());
  const whole = rounding === 'down' ? micros.floor() : rounding === 'up' ? micros.ceil() : micros.round();
  return BigInt(whole.toFixed(0));
}

/** A computed XRP value (a Decimal in XRP) → whole drops, rounded down unless told otherwise. */
export function decimalToDrops(xrp: DecimalValue, rounding: Rounding = 'down'): bigint {
  return unitsToMicros(xrp, rounding);
}

/** Drops → a Decimal in XRP (for arithmetic with issued amounts, e.g. prices). */
export function dropsToDecimal(drops: bigint | string): Decimal {
  return microsToUnits(drops);
}

/** A ledger Amount's value: XRP in XRP (not drops), an issued amount as its decimal value. */
export function amountValue(amount: LedgerAmount | { value: string }): Decimal {
  return typeof amount === 'string' ? dropsToDecimal(amount) : new Decimal(amount.value);
}

/** Canonical decimal text of a token amount ("0010.50" → "10.5"), within rippled's 16 digits. */
export function normalizeTokenValue(value: string): string {
  const d = parseDecimal(value);
  if (!d) throw new RangeError('Not a number');
  if (d.precision() > 16) throw new RangeError('Token amounts have at most 16 significant digits');
  return d.toFixed();
}

/** A text the money layer accepts as a decimal (plain or exponent form, as rippled writes it). */
function isDecimalText(value: unknown): value is string {
  return typeof value === 'string' && PLAIN_DECIMAL.test(value.trim());
}

/** A decimal from text, or null when it is not one (never throws, never reads a float). */
export function parseDecimal(value: unknown): Decimal | null {
  if (!isDecimalText(value)) return null;
  const d = new Decimal(value.trim());
  return d.isFinite() ? d : null;
}

/**
 * An issued amount's value as the ledger can carry it: 15 significant digits (rippled keeps 16;
 * the 16th is where its own rounding lands), plain text.
 */
export function toLedgerValue(value: DecimalValue, rounding: Rounding = 'down'): string {
  return new Decimal(value)
    .toSignificantDigits(15, rounding === 'down' ? Decimal.ROUND_DOWN : Decimal.ROUND_UP)
    .toFixed();
}

/** At most `places` decimals, rounded down (what a screen may promise: never more than the ledger). */
export function truncateDecimals(value: DecimalValue, places = 6): string {
  return new Decimal(value).toDecimalPlaces(places, Decimal.ROUND_DOWN).toFixed();
}

/** Exactly `places` decimals, rounded down ('1.500000'). */
export function fixedDecimals(value: DecimalValue, places = 6): string {
  return new Decimal(value).toDecimalPlaces(places, Decimal.ROUND_DOWN).toFixed(places);
}

/** Plain decimal text of any amount: no exponent, no trailing zeros ('1.50e2' → '150'). */
export function plainDecimal(value: DecimalValue): string {
  return new Decimal(value).toFixed();
}

/** Thousands separators on the whole part of a decimal text; the decimals stay exactly as they are. */
export function groupDigits(value: DecimalValue): string {
  const text = typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value) ? value : plainDecimal(value);
  const neg = text.startsWith('-');
  const [whole = '0', frac] = (neg ? text.slice(1) : text).split('.');
  return `${neg ? '-' : ''}${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}${frac ? `.${frac}` : ''}`;
}

// --- Reserves, fees and what a wallet can spend ---

/** The ledger's fee and reserve figures, in drops (from its `ledger` stream or `server_state`). */
export interface LedgerReserves {
  /** Base reserve: what an account must always hold. */
  reserveBase: bigint;
  /** Owner reserve: what each object the account owns (trust line, offer, LP line…) locks. */
  reserveIncrement: bigint;
  /** Network fee of one ordinary transaction. */
  baseFee: bigint;
}

/** base reserve + owner count × owner reserve. */
function accountReserve(ownerCount: number, reserves: LedgerReserves): bigint {
  return reserves.reserveBase + BigInt(ownerCount) * reserves.reserveIncrement;
}

/** Balance less the reserve it already locks, never below zero: the 'available' XRP people see. */
export function availableXrp(balance: bigint, ownerCount: number, reserves: LedgerReserves): bigint {
  const left = balance - accountReserve(ownerCount, reserves);
  return left > 0n ? left : 0n;
}

/** What an action costs in XRP besides its amount. */
export interface XrpAction {
  /** XRP leaving the wallet as the action's own amount (a trade's spend, a transfer, a deposit). */
  amount?: bigint;
  /** The platform's fee on it, in drops (a separate payment that must be payable afterwards). */
  platformFee?: bigint;
  /** Transactions the action signs (each pays the network fee). */
  transactions?: number;
  /** Ledger objects the action creates (trust line, offer, LP line): each locks one owner reserve. */
  newObjects?: number;
}

/** Network fees and new reserves of an action: what it locks or burns besides amount and fee. */
function actionOverhead(action: XrpAction, reserves: LedgerReserves): bigint {
  return (
    BigInt(action.transactions ?? 0) * reserves.baseFee +
    BigInt(action.newObjects ?? 0) * reserves.reserveIncrement
  );
}

/** Everything an action needs from the available balance: amount + platform fee + network fees + new reserves. */
export function xrpNeeded(action: XrpAction, reserves: LedgerReserves): bigint {
  return (action.amount ?? 0n) + (action.platformFee ?? 0n) + actionOverhead(action, reserves);
}

/**
 * Spendable XRP for an action: balance − base reserve − owner reserves − the reserves and network
 * fees the action itself will lock or burn − XRP already committed (transactions in flight, fees
 * owed). Never below zero. The action's amount plus its platform fee must fit in this.
 */
export function spendableXrp(
  balance: bigint,
  ownerCount: number,
  reserves: LedgerReserves,
  action: Pick<XrpAction, 'transactions' | 'newObjects'> = {},
  committed = 0n,
): bigint {
  const left = availableXrp(balance, ownerCount, reserves) - actionOverhead(action, reserves) - committed;
  return left > 0n ? left : 0n;
}

const PERCENT_TEXT = /^\d+(\.\d+)?$/;

/** Parts per 10^18 of a percentage text ('0.75' → 7.5e15): exact bigint fee arithmetic. */
function percentUnits(percent: string): bigint {
  if (!PERCENT_TEXT.test(percent)) throw new RangeError(`Not a percentage: ${percent}`);
  const [whole, frac = ''] = percent.split('.');
  // percent / 100 as a fraction of 10^18.
  return BigInt(whole! + frac.padEnd(16, '0').slice(0, 16));
}
const UNIT = 10n ** 18n;

/**
 * The platform fee: `percent`% of a trade's notional on its quote side, rounded down to what the
 * ledger can pay — whole drops for XRP, 15 significant digits for a token (docs/money.md). The one fee
 * rule: the server's trade records and balance checks and the web's readiness all charge it, and
 * `platformFeeDrops` is the same rule on drops.
 */
export function platformFee(notional: DecimalValue, percent: DecimalValue, quote: 'xrp' | 'iou'): Decimal {
  const raw = new Decimal(notional).mul(percent).div(100);
  return quote === 'xrp'
    ? dropsToDecimal(decimalToDrops(raw))
    : raw.toSignificantDigits(15, Decimal.ROUND_DOWN);
}

/** `platformFee` of an XRP amount in drops (as the fee job charges it): exact bigint arithmetic. */
export function platformFeeDrops(amount: bigint, feePercent: string): bigint {
  return (amount * percentUnits(feePercent)) / UNIT;
}

/** The largest amount `a` whose amount + platform fee fits in `spendable`. */
export function maxSpendWithFee(spendable: bigint, feePercent: string): bigint {
  if (spendable <= 0n) return 0n;
  const units = percentUnits(feePercent);
  // a + floor(a × p) ≤ s  ⇐  a ≤ s / (1 + p); then step up while the floor of the fee allows.
  let a = (spendable * UNIT) / (UNIT + units);
  while (a + 1n + platformFeeDrops(a + 1n, feePercent) <= spendable) a += 1n;
  return a;
}

/**
 * ALL IN (spec 001 §9: 99.2% of the balance) as this server reads it: 99.2% of what the wallet can
 * spend on the trade — the balance less its reserve, the new trust line's reserve and the network
 * fees — and never more than leaves room for the platform fee. docs/money.md.
 */
export function allInDrops(spendable: bigint, feePercent: string): bigint {
  if (spendable <= 0n) return 0n;
  const [whole, frac = ''] = ALL_IN_FRACTION.split('.');
  const scale = 10n ** BigInt(frac.length);
  const share = (spendable * BigInt(whole! + frac)) / scale;
  const cap = maxSpendWithFee(spendable, feePercent);
  return share < cap ? share : cap;
}

/**
 * ALL IN of a token-quoted buy (RLUSD): 99.2% of the balance, and never more than leaves room for
 * the platform fee (a + a × p ≤ balance, so a ≤ balance / (1 + p)); unrounded, the form truncates it
 * to its decimals. `allInDrops` is the XRP form (with reserves and network fees).
 */
export function allInAmount(balance: DecimalValue, feePercent: DecimalValue): Decimal {
  const b = new Decimal(balance);
  if (b.lte(0)) return new Decimal(0);
  return Decimal.min(b.mul(ALL_IN_FRACTION), b.div(new Decimal(feePercent).div(100).plus(1)));
}

// --- The message every signing route answers with when the wallet cannot pay ---

export const MONEY_MESSAGES = {
  /** 'Insufficient balance: you have X XRP available, this needs Y XRP.' */
  insufficient: (have: string, needs: string, asset: string) =>
    `Insufficient balance: you have ${have} ${asset} available, this needs ${needs} ${asset}.`,
  notActivated: (reserve: string) =>
    `This wallet is not activated on the XRP Ledger yet: send it at least ${reserve} XRP first.`,
} as const;

/** 'Insufficient balance: you have X XRP available, this needs Y XRP.' from drops. */
export function insufficientXrpMessage(availableDrops: bigint, neededDrops: bigint): string {
  return MONEY_MESSAGES.insufficient(
    dropsToXrp(availableDrops > 0n ? availableDrops : 0n),
    dropsToXrp(neededDrops),
    'XRP',
  );
}

/** The same sentence for a token (or RLUSD): amounts as decimal texts, `asset` as people read it. */
export function insufficientTokenMessage(
  available: DecimalValue,
  needed: DecimalValue,
  asset: string,
): string {
  const have = new Decimal(available);
  return MONEY_MESSAGES.insufficient(plainDecimal(have.isNeg() ? 0 : have), plainDecimal(needed), asset);
}
