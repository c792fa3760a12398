import { eq } from 'drizzle-orm';
import type { Client } from 'xrpl';
import { antiSniperRatePpm, type AntiSniperParams } from '@ledgerpad/shared';
import type { Db } from '../../db/client';
import { jobs } from '../../platform/jobs/schema';
import { tokens } from '../tokens/schema';
import type { bondingCurves } from './schema';

// The curve row from its table, not from service.ts: the service imports this clock.
type CurveRow = typeof bondingCurves.$inferSelect;

// The anti-sniper window of a curve launch (issue 37, docs/launch-protection.md). Its parameters are
// fixed in the deploy job's payload (`bonding.antiSniper`, no column); its clock is the ledger's:
// the window opens with the close time of the curve's launch ledger (the first validated ledger with
// its offers) and the rate for the next ledger is read at the close time of the last validated one.
// Before the launch ledger is known the surcharge is the start rate. The keeper prices the sell
// offers with `rate`; the quote shows the same figure.

export interface AntiSniperNow {
  /** The surcharge now, parts per million of the curve's value. */
  ppm: bigint;
  /** Seconds of ledger time until the window ends (0 once it has). */
  endsInSeconds: number;
}

/** Close times kept (ledger index → Ripple-epoch seconds); a few minutes of ledgers. */
const CLOSE_TIMES_KEPT = 512;

export class AntiSniperClock {
  private readonly params = new Map<number, AntiSniperParams | null>();
  private readonly closeTimes = new Map<number, number>();

  constructor(
    private readonly db: Db,
    private readonly client: () => Client | undefined,
    /** The last validated ledger; 0 without one. */
    private readonly validatedLedger: () => number,
  ) {}

  /** The launch's window as its deploy fixed it (null: none). Read once per curve. */
  async paramsOf(curve: Pick<CurveRow, 'id' | 'tokenId'>): Promise<AntiSniperParams | null> {
    const known = this.params.get(curve.id);
    if (known !== undefined) return known;
    const [row] = await this.db
      .select({ payload: jobs.payload })
      .from(tokens)
      .innerJoin(jobs, eq(jobs.id, tokens.deployJobId))
      .where(eq(tokens.id, curve.tokenId));
    const a = (row?.payload as { bonding?: { antiSniper?: AntiSniperParams | null } } | undefined)?.bonding
      ?.antiSniper;
    const params = a && a.startPpm > 0 && a.windowSeconds > 0 ? a : null;
    this.params.set(curve.id, params);
    return params;
  }

  private async closeTime(ledgerIndex: number): Promise<number> {
    const known = this.closeTimes.get(ledgerIndex);
    if (known !== undefined) return known;
    const client = this.client();
    if (!client) throw new Error('no ledger connection');
    const r = await client.request({ command: 'ledger', ledger_index: ledgerIndex });
    const t = r.result.ledger.close_time;
    if (this.closeTimes.size >= CLOSE_TIMES_KEPT) {
      const oldest = Math.min(...this.closeTimes.keys());
      this.closeTimes.delete(oldest);
    }
    this.closeTimes.set(ledgerIndex, t);
    return t;
  }

  /**
   * A window launch's window is over at the last validated ledger (ledger time ≥ its seconds): its
   * pool opens. Not before its launch ledger is known. A launch ledger whose close time cannot be
   * read any more (history gone) is long past: over. A launch without a window: over.
   */
  async windowOver(
    curve: Pick<CurveRow, 'id' | 'tokenId' | 'launchLedger'>,
    validated = this.validatedLedger(),
  ): Promise<boolean> {
    const a = await this.paramsOf(curve);
    if (!a) return true;
    if (curve.launchLedger === null || validated < curve.launchLedger) return false;
    try {
      const elapsed = (await this.closeTime(validated)) - (await this.closeTime(curve.launchLedger));
      return elapsed >= a.windowSeconds;
    } catch {
      return true;
    }
  }

  /**
   * The surcharge for the next ledger, or undefined when the launch has no window or it is over.
   * The launch ledger's close time unreadable (history gone): the window counts as over — trading
   * never stalls on it.
   */
  async rate(
    curve: Pick<CurveRow, 'id' | 'tokenId' | 'launchLedger' | 'status'>,
    validated = this.validatedLedger(),
  ): Promise<AntiSniperNow | undefined> {
    if (curve.status !== 'active') return undefined;
    const a = await this.paramsOf(curve);
    if (!a) return undefined;
    if (curve.launchLedger === null || validated < curve.launchLedger)
      return { ppm: antiSniperRatePpm(a, 0), endsInSeconds: a.windowSeconds };
    let elapsed: number;
    try {
      elapsed = (await this.closeTime(validated)) - (await this.closeTime(curve.launchLedger));
    } catch {
      return undefined;
    }
    const ppm = antiSniperRatePpm(a, elapsed);
    if (ppm === 0n) return undefined;
    return { ppm, endsInSeconds: Math.max(0, a.windowSeconds - elapsed) };
  }
}
