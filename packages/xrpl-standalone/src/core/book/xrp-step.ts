// rippled's XRPEndpointStep: XRP entering a strand from its source (limited to what the account
// can spend above its reserve) or leaving it to its destination.
import type { Amount } from '../amount/amount';
import type { Ter } from '../results';
import type { ApplyView, StateReader } from '../state/apply-view';
import type { DebtDirection, Step, StepResult } from '../payment/step';
import { type Issue, xrpDrops } from '../../amm/amount';
import { send, toAmt } from './funds';
import { readAccount, xrpLiquid } from './read';

export class XrpEndpointStep implements Step {
  readonly kind = 'xrp';
  readonly account: string;
  readonly isSource: boolean;
  private cap = 0n;

  constructor(account: string, isSource: boolean) {
    this.account = account;
    this.isSource = isSource;
  }

  check(view: StateReader): Ter {
    return readAccount(view, this.account) ? 'tesSUCCESS' : 'terNO_ACCOUNT';
  }

  prepare(view: StateReader): void {
    if (!this.isSource) {
      this.cap = 100_000_000_000_000_000n;
      return;
    }
    const cfg = (view as ApplyView).ctx?.config ?? { reserveBase: 0n, reserveIncrement: 0n };
    this.cap = xrpLiquid(view, this.account, cfg);
  }

  debtDirection(): DebtDirection {
    return 'issues';
  }

  dry(): boolean {
    return this.cap <= 0n;
  }

  private move(sb: ApplyView, drops: bigint): StepResult {
    const x = drops < this.cap ? drops : this.cap;
    const amt = xrpDrops(x);
    const ter = this.isSource ? send(sb, this.account, '', amt) : send(sb, '', this.account, amt);
    if (ter !== 'tesSUCCESS') throw new Error(`xrp endpoint: ${ter}`);
    this.cap -= x;
    return { in: { kind: 'xrp', drops: x }, out: { kind: 'xrp', drops: x } };
  }

  rev(sb: ApplyView, out: Amount): StepResult {
    return this.move(sb, out.kind === 'xrp' ? out.drops : 0n);
  }

  fwd(sb: ApplyView, input: Amount): StepResult {
    return this.move(sb, input.kind === 'xrp' ? input.drops : 0n);
  }
}

/**
 * The last step of offer crossing for a token: the issuer credits the taker, creating the
 * taker's trust line when it has none (rippled's DirectIOfferCrossingStep + rippleCredit).
 */
export class CrossingDeliverStep implements Step {
  readonly kind = 'deliver';
  readonly account: string;
  readonly issue: Issue;

  constructor(account: string, issue: Issue) {
    this.account = account;
    this.issue = issue;
  }

  check(view: StateReader): Ter {
    return readAccount(view, this.account) ? 'tesSUCCESS' : 'terNO_ACCOUNT';
  }

  prepare(): void {}

  debtDirection(): DebtDirection {
    return 'issues';
  }

  dry(): boolean {
    return false;
  }

  private move(sb: ApplyView, a: Amount): StepResult {
    const ter = send(sb, '', this.account, { issue: this.issue, value: toAmt(a).value });
    if (ter !== 'tesSUCCESS') throw new Error(`crossing delivery: ${ter}`);
    return { in: a, out: a };
  }

  rev(sb: ApplyView, out: Amount): StepResult {
    return this.move(sb, out);
  }

  fwd(sb: ApplyView, input: Amount): StepResult {
    return this.move(sb, input);
  }
}
