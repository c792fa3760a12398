// rippled's BookStep for the engine's strands: converts one issue into another through an order
// book and, when one exists for the pair, the AMM. Each pass consumes one quality level, as
// rippled's forEachOffer does: the AMM offer when it beats the book (sized to the book's best
// quality, or the whole request when the book is empty), then the book's offers of that quality.
// Expired and unfunded offers met on the way are removed; funds count as zero when frozen.
import type { Amount } from '../amount/amount';
import type { LedgerEntry } from '../contract';
import { Num, withRound } from '../number';
import type { Ter } from '../results';
import { ApplyView, type StateReader } from '../state/apply-view';
import { type Amt, type Issue, addAmt, isXrp, subAmt, toAmt as roundAmt, zeroAmt } from '../../amm/amount';
import { ammLimitIn, ammLimitOut, ammOffer, ammOfferAtQuality, type AmmOffer } from '../../amm/amm-offer';
import type { Pool } from '../../amm/math';
import type { DebtDirection, Step, StepResult, StrandContext } from '../payment/step';
import { bookDirectories, type OrderedLedger } from './book-walk';
import { offerDelete, send, toAmount, toAmt } from './funds';
import { ceilIn, ceilOut } from './quality';
import {
  accountFunds,
  ammPoolBalance,
  amtFromJson,
  directoryOffers,
  readAmm,
  tradingFeeFor,
  transferRate,
  type AmmState,
} from './read';
import { succ } from './succ';

const QUALITY_ONE = 1_000_000_000;

/** A quality bound shared by the steps of one strand (offer crossing, tfLimitQuality). */
export interface StrandLimit {
  /** Worst acceptable strand quality (64-bit rate encoding, lower is better). */
  quality: bigint;
  steps: BookStep[];
}

export interface BookStepOptions {
  /** Offer crossing: the offer owner pays the transfer fee on what it gives. */
  ownerPaysTransferFee: boolean;
  limit?: StrandLimit;
}

function ordered(view: StateReader): OrderedLedger {
  return { read: (i) => view.read(i), succ: (a, b) => succ(view, a, b) };
}

function mulRate(a: Amt, rate: number, roundUp: boolean): Amt {
  if (rate === QUALITY_ONE) return a;
  const mode = roundUp ? 'upward' : 'downward';
  return withRound(mode, () => roundAmt(a.issue, a.value.mul(Num.of(rate, -9)), mode));
}

function divRate(a: Amt, rate: number, roundUp: boolean): Amt {
  if (rate === QUALITY_ONE) return a;
  const mode = roundUp ? 'upward' : 'downward';
  return withRound(mode, () => roundAmt(a.issue, a.value.div(Num.of(rate, -9)), mode));
}

interface Tip {
  clobQuality?: bigint;
  clobDir?: string;
  amm?: { state: AmmState; pool: Pool; fee: number; offer: AmmOffer };
  quality?: bigint;
}

export class BookStep implements Step {
  readonly kind = 'book';
  readonly inIssue: Issue;
  readonly outIssue: Issue;
  private readonly opts: BookStepOptions;
  private src = '';
  private trIn = QUALITY_ONE;
  private trOut = QUALITY_ONE;
  tip: Tip = {};
  /** The last tip found and the view state it was found in (see prepare). */
  private kept: { view: ApplyView; version: number; tip: Tip } | undefined;
  /**
   * Where the book's walk starts in `view`: the last tip's directory. Every directory before it was
   * emptied for good in that view when it was found (dead offers removed, not merely skipped), and
   * during one flow a book only loses offers (crossing never creates one), so none comes back.
   */
  private walkFrom: { view: ApplyView; dir: string } | undefined;
  private parentCloseTime = 0;
  private reserve = { reserveBase: 0n, reserveIncrement: 0n };

  constructor(inIssue: Issue, outIssue: Issue, opts: BookStepOptions) {
    this.inIssue = inIssue;
    this.outIssue = outIssue;
    this.opts = opts;
  }

  check(view: StateReader): Ter {
    void view;
    return 'tesSUCCESS';
  }

  debtDirection(): DebtDirection {
    return this.opts.ownerPaysTransferFee ? 'issues' : 'redeems';
  }

  prepare(view: StateReader, ctx: StrandContext): void {
    this.src = ctx.src;
    const av = view as ApplyView;
    this.parentCloseTime = av.ctx?.parentCloseTime ?? 0;
    if (av.ctx?.config) this.reserve = av.ctx.config;
    this.trIn =
      !isXrp(this.inIssue) && ctx.prev?.debtDirection() === 'redeems'
        ? transferRate(view, this.inIssue.issuer)
        : QUALITY_ONE;
    this.trOut =
      this.opts.ownerPaysTransferFee && !isXrp(this.outIssue)
        ? transferRate(view, this.outIssue.issuer)
        : QUALITY_ONE;
    // The tip is a function of the view's state. The flow prepares a strand on a fresh sandbox of
    // its view, and again on another fresh sandbox of the same, unchanged view when a step limits
    // the pass: the tip found the first time is then reused (the book is not walked twice). A
    // write to the view (a pass applied, dead offers removed) bumps its version and ends the reuse;
    // this step lives for one transaction's flow, whose writes all go through that view.
    const base = view instanceof ApplyView && view.changeCount === 0 ? view.base : undefined;
    const kept = this.kept;
    if (base instanceof ApplyView && kept && kept.view === base && kept.version === base.version) {
      this.tip = kept.tip;
      return;
    }
    const from = base instanceof ApplyView && this.walkFrom?.view === base ? this.walkFrom.dir : undefined;
    this.tip = this.findTip(view, from);
    this.kept = base instanceof ApplyView ? { view: base, version: base.version, tip: this.tip } : undefined;
    if (base instanceof ApplyView && this.tip.clobDir !== undefined)
      this.walkFrom = { view: base, dir: this.tip.clobDir };
  }

  /** An offer that can never be taken: expired, or its owner has nothing to give. */
  private isDead(view: StateReader, offer: LedgerEntry): boolean {
    const expiration = offer.Expiration === undefined ? undefined : Number(offer.Expiration);
    if (expiration !== undefined && expiration <= this.parentCloseTime) return true;
    return accountFunds(view, String(offer.Account), this.outIssue, this.reserve).value.signum() <= 0;
  }

  /**
   * The best quality with a live offer. Dead offers in front of it are removed for good (rippled's
   * OfferStream permanent removal): in the view the strand's sandbox was made from, so they stay
   * removed whichever strand wins this pass.
   */
  private findTip(view: StateReader, from?: string): Tip {
    const tip: Tip = {};
    const target = view instanceof ApplyView && view.base instanceof ApplyView ? view.base : view;
    for (const dir of bookDirectories(ordered(view), this.inIssue, this.outIssue, from)) {
      const dead: LedgerEntry[] = [];
      let live = false;
      for (const index of directoryOffers(view, dir)) {
        const offer = view.read(index);
        if (!offer) continue;
        if (this.isDead(view, offer)) dead.push(offer);
        else {
          live = true;
          break;
        }
      }
      if (target instanceof ApplyView) for (const offer of dead) offerDelete(target, offer);
      if (live) {
        tip.clobQuality = BigInt('0x' + dir.slice(48));
        tip.clobDir = dir;
        break;
      }
    }
    const state = readAmm(view, this.inIssue, this.outIssue);
    if (state) {
      const pool: Pool = {
        in: ammPoolBalance(view, state.account, this.inIssue, true),
        out: ammPoolBalance(view, state.account, this.outIssue, true),
      };
      const fee = tradingFeeFor(state, this.src, this.parentCloseTime);
      // With a quality limit on a single book and no better book offer, the AMM offer stops where
      // its average quality reaches the limit (rippled StrandFlow limitOut on a one-strand flow).
      const limit =
        this.opts.limit && this.opts.limit.steps.length === 1 ? this.opts.limit.quality : undefined;
      const offer =
        tip.clobQuality === undefined && limit !== undefined
          ? ammOfferAtQuality(pool, limit, fee)
          : ammOffer(pool, fee, tip.clobQuality);
      if (offer && (tip.clobQuality === undefined || offer.quality <= tip.clobQuality)) {
        tip.amm = { state, pool, fee, offer };
      }
    }
    tip.quality = tip.amm ? tip.amm.offer.quality : tip.clobQuality;
    return tip;
  }

  dry(): boolean {
    if (this.tip.quality === undefined) return true;
    const limit = this.opts.limit;
    if (limit) {
      // The strand's quality is the product of its steps' rates.
      let rate = Num.one;
      for (const s of limit.steps) {
        if (s.tip.quality === undefined) return true;
        rate = rate.mul(rateOf(s.tip.quality));
      }
      if (rate.gt(rateOf(limit.quality))) return true;
    }
    return false;
  }

  // Neighbouring steps label token amounts with their own account as issuer (rippled's
  // DirectStep convention); only the value matters, the issue is this step's.
  rev(sb: ApplyView, out: Amount): StepResult {
    return this.consume(sb, { out: { issue: this.outIssue, value: toAmt(out).value } });
  }

  fwd(sb: ApplyView, input: Amount): StepResult {
    return this.consume(sb, { in: { issue: this.inIssue, value: toAmt(input).value } });
  }

  /** Consume one quality level, limited by output wanted or input available (taker side, gross). */
  private consume(sb: ApplyView, limit: { out?: Amt; in?: Amt }): StepResult {
    let totalIn = zeroAmt(this.inIssue);
    let totalOut = zeroAmt(this.outIssue);
    let remOut = limit.out;
    let remIn = limit.in;
    const done = (): boolean =>
      (remOut !== undefined && remOut.value.signum() <= 0) ||
      (remIn !== undefined && remIn.value.signum() <= 0);
    const take = (chunk: { in: Amt; out: Amt }): void => {
      const gross = mulRate(chunk.in, this.trIn, true);
      totalIn = addAmt(totalIn, gross);
      totalOut = addAmt(totalOut, chunk.out);
      if (remOut) remOut = subAmt(remOut, chunk.out);
      if (remIn) remIn = subAmt(remIn, gross);
    };
    const fit = (
      offer: { in: Amt; out: Amt },
      quality: bigint,
      exact?: (p: { in?: Amt; out?: Amt }) => { in: Amt; out: Amt },
    ) => {
      let chunk = offer;
      if (remOut && chunk.out.value.gt(remOut.value))
        chunk = exact ? exact({ out: remOut }) : ceilOut(chunk, remOut, quality);
      if (remIn) {
        const netIn = divRate(remIn, this.trIn, false);
        if (chunk.in.value.gt(netIn.value))
          chunk = exact ? exact({ in: netIn }) : ceilIn(chunk, netIn, quality);
      }
      return chunk;
    };

    const tip = this.tip;
    if (tip.amm) {
      const { state, pool, fee, offer } = tip.amm;
      const chunk = fit(offer, offer.quality, (p) =>
        p.out ? ammLimitOut(pool, p.out, fee) : ammLimitIn(pool, p.in as Amt, fee),
      );
      if (chunk.in.value.signum() > 0 && chunk.out.value.signum() > 0) {
        this.transfer(sb, state.account, chunk, false);
        take(chunk);
      }
      if (done() || tip.clobQuality === undefined || offer.quality !== tip.clobQuality) {
        return { in: toAmount(totalIn), out: toAmount(totalOut) };
      }
    }
    if (tip.clobDir !== undefined && tip.clobQuality !== undefined) {
      const quality = tip.clobQuality;
      for (const index of [...directoryOffers(sb, tip.clobDir)]) {
        if (done()) break;
        const offer = sb.read(index);
        if (!offer) continue;
        const chunk = this.offerChunk(sb, offer, quality, fit);
        if (!chunk) continue;
        this.transfer(sb, String(offer.Account), chunk, this.opts.ownerPaysTransferFee);
        this.reduceOffer(sb, offer, chunk);
        take(chunk);
      }
    }
    return { in: toAmount(totalIn), out: toAmount(totalOut) };
  }

  /** The part of a resting offer to take now, or undefined after removing a dead offer. */
  private offerChunk(
    sb: ApplyView,
    offer: LedgerEntry,
    quality: bigint,
    fit: (o: { in: Amt; out: Amt }, q: bigint) => { in: Amt; out: Amt },
  ): { in: Amt; out: Amt } | undefined {
    const owner = String(offer.Account);
    const expiration = offer.Expiration === undefined ? undefined : Number(offer.Expiration);
    if (expiration !== undefined && expiration <= this.parentCloseTime) {
      offerDelete(sb, offer);
      return undefined;
    }
    const amounts = { in: amtFromJson(offer.TakerPays), out: amtFromJson(offer.TakerGets) };
    const funds = accountFunds(sb, owner, this.outIssue, this.reserve);
    if (funds.value.signum() <= 0) {
      offerDelete(sb, offer);
      return undefined;
    }
    const ownerRate = owner === this.outIssue.issuer ? QUALITY_ONE : this.trOut;
    const canGive = divRate(funds, ownerRate, false);
    let avail = amounts;
    // partly funded: rippled rounds this limit down so the remaining offer keeps its quality
    if (canGive.value.lt(amounts.out.value)) avail = ceilOut(amounts, canGive, quality, false);
    const chunk = fit(avail, quality);
    if (chunk.in.value.signum() <= 0 || chunk.out.value.signum() <= 0) return undefined;
    return chunk;
  }

  /** Taker's input goes to the owner; the owner's output leaves toward the next step. */
  private transfer(sb: ApplyView, owner: string, chunk: { in: Amt; out: Amt }, ownerPays: boolean): void {
    let ter = send(sb, '', owner, chunk.in);
    if (ter !== 'tesSUCCESS') throw new Error(`book step input: ${ter}`);
    const gives =
      ownerPays && owner !== this.outIssue.issuer ? mulRate(chunk.out, this.trOut, true) : chunk.out;
    ter = send(sb, owner, '', gives);
    if (ter !== 'tesSUCCESS') throw new Error(`book step output: ${ter}`);
  }

  private reduceOffer(sb: ApplyView, offer: LedgerEntry, chunk: { in: Amt; out: Amt }): void {
    const pays = subAmt(amtFromJson(offer.TakerPays), chunk.in);
    const gets = subAmt(amtFromJson(offer.TakerGets), chunk.out);
    const cur = sb.read(offer.index) as LedgerEntry;
    // As rippled's TOffer::consume: the offer's amounts are updated first, then a consumed offer is
    // deleted, so the DeletedNode's FinalFields hold what was left and PreviousFields what it had.
    const next = { ...cur, TakerPays: jsonAmt(pays), TakerGets: jsonAmt(gets) };
    sb.update(next);
    if (pays.value.signum() <= 0 || gets.value.signum() <= 0)
      offerDelete(sb, sb.read(offer.index) as LedgerEntry);
  }
}

function jsonAmt(a: Amt): unknown {
  const am = toAmount(a);
  return am.kind === 'xrp'
    ? am.drops.toString()
    : { currency: am.currency, issuer: am.issuer, value: am.value.toString() };
}

function rateOf(q: bigint): Num {
  const m = q & ((1n << 56n) - 1n);
  return Num.fromNormalized(m, Number(q >> 56n) - 100);
}
