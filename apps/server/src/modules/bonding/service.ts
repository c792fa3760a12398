import { and, eq, inArray } from 'drizzle-orm';
import {
  bondingProgress,
  microsToDecimal,
  stepPrice,
  endPrice,
  graduationTarget,
  launchProtectionMessage,
  BONDING_TOTAL_SUPPLY,
  type BondingParams,
  type BondingView,
  Decimal,
  microsToUnits,
  soldFromHeld,
} from '@ledgerpad/shared';
import { batchedRows } from '../../db/batched';
import type { Db } from '../../db/client';
import type { CurveMarket } from '../market';
import { wallets } from '../../platform/custody-schema';
import type { AntiSniperClock, AntiSniperNow } from './anti-sniper';
import { bondingCurves } from './schema';

export type CurveRow = typeof bondingCurves.$inferSelect;

/** The role of a curve account in the wallets table: platform-held, never shown among a user's wallets. */
const CURVE_WALLET_ROLE = 'bonding_curve';

export const GRADUATION_JOB = 'bonding-graduate';
export const FEE_SWEEP_JOB = 'bonding-fee-sweep';

export const paramsOf = (
  c: Pick<CurveRow, 'virtualQuote' | 'steps' | 'fineSteps' | 'virtualTokens' | 'curveTokens' | 'startHeld'>,
): BondingParams => ({
  virtualQuote: BigInt(c.virtualQuote),
  steps: c.steps,
  fineSteps: c.fineSteps,
  // A window launch's own y0, sellable supply and starting balance; a curve launch's are the constants.
  ...(c.virtualTokens !== null ? { virtualTokens: BigInt(c.virtualTokens) } : {}),
  ...(c.curveTokens !== null ? { curveSupply: BigInt(c.curveTokens) } : {}),
  ...(c.startHeld !== null ? { startHeld: c.startHeld } : {}),
});

/** An instant launch's anti-sniper window (its pre-pool ladder), not a curve launch. */
export const isWindowCurve = (c: Pick<CurveRow, 'kind'>): boolean => c.kind === 'window';

export interface NewCurve {
  tokenId: number;
  issuerAddress: string;
  currency: string;
  quote: 'XRP' | 'RLUSD';
  quoteIssuer: string | null;
  curveWalletId: number;
  curveAddress: string;
  creatorUserId: number;
  creatorAddress: string;
  depositDrops: string;
  virtualQuote: string;
  steps: number;
  fineSteps: number;
  snipeLedgers: number;
  snipeTokens: string;
  ammTradingFee: number;
  feePpm: number;
  /** A window launch (docs/launch-protection.md); absent: a curve launch. */
  window?: {
    virtualTokens: string;
    curveTokens: string;
    startHeld: string;
    totalSupply: string;
    realQuote: string;
    graduateAfterSeconds: number;
    /** The curve account's balance and what it was paid once the creator's first buy left it. */
    held: string;
    quoteIn: string;
  };
}

/** The figures of a curve the token page and the list show (prices in the quote asset). */
export function curveView(c: CurveRow, xrpUsd: string | null): BondingView {
  const p = paramsOf(c);
  const progress = bondingProgress(p, soldFromHeld(c.held, p));
  const price = microsToUnits(stepPrice(p, progress.sold));
  const usdPerQuote = c.quote === 'RLUSD' ? new Decimal(1) : xrpUsd ? new Decimal(xrpUsd) : null;
  const marketCap = price.mul(c.totalSupply ?? BONDING_TOTAL_SUPPLY.toString());
  const graduated = c.status === 'graduated';
  return {
    token_id: c.tokenId,
    status: c.status as BondingView['status'],
    quote: c.quote as 'XRP' | 'RLUSD',
    curve_address: c.curveAddress,
    sold: progress.sold,
    curve_supply: progress.curveSupply,
    percent: graduated ? '100.00' : progress.percent,
    raised: microsToDecimal(graduated ? graduationTarget(p) : progress.raised),
    target: microsToDecimal(progress.target),
    price: price.toSignificantDigits(15).toFixed(),
    end_price: microsToUnits(endPrice(p)).toSignificantDigits(15).toFixed(),
    market_cap: marketCap.toDecimalPlaces(6).toFixed(),
    market_cap_usd: usdPerQuote ? marketCap.mul(usdPerQuote).toDecimalPlaces(2).toFixed(2) : null,
    launch_ledger: c.launchLedger,
    snipe_until_ledger:
      c.launchLedger !== null && c.snipeLedgers > 0 ? c.launchLedger + c.snipeLedgers : null,
    snipe_tokens: c.snipeTokens,
    steps: c.steps,
    amm_account: c.ammAccount,
    graduated_ledger: c.graduatedLedger,
    ...(isWindowCurve(c) ? { kind: 'window' as const } : {}),
  };
}

/** The curves' registry: what the other modules ask of the bonding module. */
export class BondingRegistry {
  private readonly listeners = new Set<() => void>();
  /** The anti-sniper windows' clock (with a ledger connection). */
  antiSniperClock?: AntiSniperClock;
  constructor(
    private readonly db: Db,
    /** The last validated ledger (the anti-snipe window counts ledgers); 0 without a ledger. */
    private readonly validatedLedger: () => number = () => 0,
  ) {}

  /**
   * The anti-sniper surcharge inside the curve's sell prices now (issue 37), while the token's curve
   * launch is in its window; undefined otherwise. The quote shows it as its own line.
   */
  /** A window launch still on its ladder: seconds of ledger time until its pool opens. */
  async poolOpensIn(c: CurveRow): Promise<number | undefined> {
    if (!isWindowCurve(c) || c.status !== 'active' || !this.antiSniperClock) return undefined;
    return (await this.antiSniperClock.rate(c))?.endsInSeconds ?? 0;
  }

  async antiSniper(issuer: string, currency: string): Promise<AntiSniperNow | undefined> {
    const c = await this.byIssuer(issuer, currency);
    if (!c || !this.antiSniperClock) return undefined;
    return this.antiSniperClock.rate(c);
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  changed(): void {
    for (const l of this.listeners) l();
  }

  /**
   * Inside the deploy's listing transaction: the curve row, and the staged wallet becomes the
   * platform-held curve account. Once per token (unique index), however often the step runs.
   */
  async registerCurve(tx: Db, c: NewCurve): Promise<void> {
    const { window, ...curve } = c;
    await tx
      .insert(bondingCurves)
      .values({
        ...curve,
        held: window?.held ?? BONDING_TOTAL_SUPPLY.toString(),
        ...(window
          ? {
              kind: 'window',
              virtualTokens: window.virtualTokens,
              curveTokens: window.curveTokens,
              startHeld: window.startHeld,
              totalSupply: window.totalSupply,
              realQuote: window.realQuote,
              graduateAfterSeconds: window.graduateAfterSeconds,
              // The creator's first buy (before any offer): sold and paid in, as any buy of the curve.
              quoteIn: window.quoteIn,
            }
          : {}),
      })
      .onConflictDoNothing();
    await tx
      .update(wallets)
      .set({ role: CURVE_WALLET_ROLE, name: 'Bonding curve' })
      .where(and(eq(wallets.id, c.curveWalletId), eq(wallets.role, 'deploy_hot')));
  }

  async byId(id: number): Promise<CurveRow | undefined> {
    const [row] = await this.db.select().from(bondingCurves).where(eq(bondingCurves.id, id));
    return row;
  }

  async byToken(tokenId: number): Promise<CurveRow | undefined> {
    const [row] = await this.db.select().from(bondingCurves).where(eq(bondingCurves.tokenId, tokenId));
    return row;
  }

  async byIssuer(issuer: string, currency?: string): Promise<CurveRow | undefined> {
    const rows = await this.curvesOf(issuer);
    const row = currency ? rows.find((r) => r.currency === currency) : rows[0];
    return row && { ...row };
  }

  /** An issuer's curves: every quote and swap asks, so one turn's issuers share a statement. */
  private readonly curvesOf = batchedRows(
    (issuers: string[]) =>
      this.db.select().from(bondingCurves).where(inArray(bondingCurves.issuerAddress, issuers)),
    (r) => r.issuerAddress,
  );

  /** Curves not yet graduated (the keeper's and the follower's work list). */
  async live(): Promise<CurveRow[]> {
    return this.db
      .select()
      .from(bondingCurves)
      .where(inArray(bondingCurves.status, ['active', 'graduating']));
  }

  async all(): Promise<CurveRow[]> {
    return this.db.select().from(bondingCurves);
  }

  /** Tokens still on their curve, priced by it (the market snapshot's view). */
  async markets(): Promise<CurveMarket[]> {
    // A graduating curve still prices the token (its final price, the pool's opening price) until
    // the pool is up: the token never drops out of the market data in between.
    const rows = await this.db
      .select()
      .from(bondingCurves)
      .where(inArray(bondingCurves.status, ['active', 'graduating']));
    return rows.map((c) => {
      const v = curveView(c, null);
      return {
        tokenId: c.tokenId,
        quote: c.quote as 'XRP' | 'RLUSD',
        curveAddress: c.curveAddress,
        price: v.price,
        raised: v.raised,
      };
    });
  }

  /**
   * The account of the token's curve while it trades on it: the trading module leaves the part of
   * a trade that crossed the curve out of its own fee (the curve's prices carry the fee).
   */
  /**
   * The anti-snipe cap's sentence while the token's curve is in its window for the next ledger
   * (where a buy submitted now lands), as the keeper applies it; undefined otherwise.
   */
  async launchProtection(issuer: string, currency: string): Promise<string | undefined> {
    const c = await this.byIssuer(issuer, currency);
    if (!c || c.status !== 'active' || c.snipeLedgers <= 0) return undefined;
    const nextLedger = this.validatedLedger() + 1;
    if (c.launchLedger !== null && nextLedger >= c.launchLedger + c.snipeLedgers) return undefined;
    return launchProtectionMessage(new Decimal(c.snipeTokens).toFixed(), c.snipeLedgers);
  }

  async activeCurveAccount(issuer: string, currency: string): Promise<string | undefined> {
    const c = await this.byIssuer(issuer, currency);
    return c && c.status !== 'graduated' ? c.curveAddress : undefined;
  }
}
