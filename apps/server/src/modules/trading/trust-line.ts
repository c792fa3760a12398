import { randomUUID } from 'node:crypto';
import {
  Decimal,
  TRUSTLINE_MESSAGES,
  ledgerResultMessage,
  type AddTrustlineResult,
  type addTrustlineSchema,
  type IntentRequired,
  type WalletKind,
  serverSigns,
  TRUST_LINE_MAX_LIMIT,
} from '@ledgerpad/shared';
import { ledgerFailure } from '../../ledger/errors';
import type { SubmissionOutcome, SubmitRequest } from '../../ledger/submission-service';
import type { IntentFinisher } from '../../platform/intents';
import type { Parsed } from '../../lib/validation';
import { TradingBase, type WalletRow } from './trading-base';

/** The limit of the trust lines trading opens: far above any supply a token launched here can have. */
const TRUST_LIMIT = TRUST_LINE_MAX_LIMIT;

/** Rounds of ensureLine: its own TrustSet, then again after ones that did not apply. */
const LINE_ROUNDS = 3;

/** A TrustSet that opens (or keeps) the line `asset`: a positive limit to its issuer. */
export function opensLine(tx: Record<string, unknown>, asset: { currency: string; issuer: string }): boolean {
  const limit = tx.LimitAmount as { currency?: string; issuer?: string; value?: string } | undefined;
  return (
    tx.TransactionType === 'TrustSet' &&
    limit?.currency === asset.currency &&
    limit.issuer === asset.issuer &&
    new Decimal(limit.value ?? 0).gt(0)
  );
}

// The trust lines trading needs: one TrustSet per line however many actions need it, and POST
// /api/add-trustline.
export abstract class TrustLines extends TradingBase {
  /**
   * The trust line `asset` of `wallet`, signed once however many actions need it at the same time
   * (issue 34: 50 concurrent buys from 10 wallets signed 50 TrustSets for 20 lines). Under the
   * wallet's funds lease — across instances — a line already on the ledger is used; a TrustSet of
   * this line already in flight (another buy, tab or instance, or the add-trustline button) is
   * followed; only otherwise is one signed, `check` run right before it. When the TrustSet that was
   * followed fails without applying (expired, sequence taken: nothing charged), the next action to
   * come signs another; one that applied and failed (tec: the reserve, the issuer's rules) fails every
   * action that waited for it, with its sentence — theirs would fail the same way. Undefined when
   * the line was there already.
   */
  private async ensureLine(
    userId: number,
    wallet: WalletRow,
    asset: { currency: string; issuer: string },
    intentKey: string,
    purpose: string,
    check: () => Promise<unknown>,
    delegate?: string,
  ): Promise<SubmissionOutcome | undefined> {
    const { funds, submissions } = this.deps;
    for (let round = 1; ; round++) {
      const step = await funds.withAccount(wallet.address, async () => {
        if (await this.canHold(wallet.address, { kind: 'iou', ...asset })) return undefined;
        const [open] = await submissions.inFlight(wallet.address, (tx) => opensLine(tx, asset));
        if (open) return { row: open };
        await check();
        const req = this.trustLineRequest(
          userId,
          wallet,
          asset,
          round === 1 ? intentKey : `${intentKey}:again-${round}`,
          purpose,
          delegate,
        );
        if (delegate) await this.catchUpSequence(wallet.address);
        return { row: await submissions.prepare(req), req };
      });
      if (!step) return undefined;
      const outcome = step.req
        ? await submissions.follow(step.req, step.row)
        : ((await submissions.existing(step.row.intentKey)) ?? (await submissions.wait(step.row.hash)));
      if (outcome.status === 'success') return outcome;
      if (step.req || outcome.result.startsWith('tec') || round >= LINE_ROUNDS) return outcome;
    }
  }

  /** ensureLine for a trade: a line that could not be opened stops the trade with its sentence. */
  protected async openLine(
    userId: number,
    wallet: WalletRow,
    asset: { currency: string; issuer: string },
    intentKey: string,
    check: () => Promise<unknown>,
    delegate?: string,
  ): Promise<void> {
    const opened = await this.ensureLine(userId, wallet, asset, intentKey, 'swap-trustline', check, delegate);
    if (opened && opened.status !== 'success')
      throw ledgerFailure(opened, `${TRUSTLINE_MESSAGES.failed}: ${ledgerResultMessage(opened.result)}`);
  }

  protected trustLineRequest(
    userId: number,
    wallet: WalletRow,
    asset: { currency: string; issuer: string },
    intentKey: string,
    purpose: string,
    delegate?: string,
  ): SubmitRequest {
    return {
      intentKey,
      account: wallet.address,
      tx: {
        TransactionType: 'TrustSet',
        LimitAmount: { currency: asset.currency, issuer: asset.issuer, value: TRUST_LIMIT },
      },
      purpose,
      userId,
      walletId: wallet.id,
      ...(delegate ? { delegate } : {}),
    };
  }

  /**
   * POST /api/add-trustline: the wallet's trust line to a token (nothing sent when it exists). The
   * multi-wallet screen calls it for several wallets at once: each wallet has its own sequence, and
   * the submission service orders a wallet's own transactions. Checked first: the line's reserve
   * and its network fee.
   */
  async addTrustline(
    userId: number,
    b: Parsed<typeof addTrustlineSchema>,
    idempotencyKey?: string,
  ): Promise<AddTrustlineResult | IntentRequired> {
    const wallet = await this.wallet(userId, b.wallet);
    const m = await this.market(b.issuer, b.token, undefined);
    const intentKey = `trustline:${userId}:${idempotencyKey ?? randomUUID()}`;
    if (!serverSigns(wallet.kind as WalletKind)) {
      // The wallet signs its own TrustSet (docs/self-custody.md); the 'add-trustline' finisher
      // answers as below. A line already there sends nothing.
      const known = idempotencyKey ? await this.intents.known(intentKey) : undefined;
      if (known) return { status: 'sign', intent: known };
      if (await this.canHold(wallet.address, m.token)) return { status: 'success', existed: true };
      await this.deps.funds.requireXrp(wallet.address, { transactions: 1, newObjects: 1 });
      const intent = await this.intents.prepare({
        userId,
        wallet,
        purpose: 'add-trustline',
        intentKey,
        txs: [
          {
            tx: this.trustLineRequest(userId, wallet, m.token, '', 'add-trustline').tx,
            purpose: 'add-trustline',
          },
        ],
        context: {},
      });
      return { status: 'sign', intent };
    }
    const done = await this.deps.submissions.existing(intentKey);
    const res =
      done ??
      (await this.ensureLine(userId, wallet, m.token, intentKey, 'add-trustline', () =>
        this.deps.funds.requireXrp(wallet.address, { transactions: 1, newObjects: 1 }),
      ));
    if (!res) return { status: 'success', existed: true };
    return lineResult(res);
  }

  /** The finisher of a self-custody wallet's add-trustline (registered by the module). */
  addTrustlineFinisher(): IntentFinisher {
    return {
      recheck: async (intent) => {
        await this.deps.funds.requireXrp(intent.account, { transactions: 1, newObjects: 1 });
      },
      finish: async (_intent, [outcome]) => lineResult(outcome!),
    };
  }
}

/** The answer of POST /api/add-trustline from its TrustSet's outcome (both kinds of wallet). */
function lineResult(res: SubmissionOutcome): AddTrustlineResult {
  if (res.status !== 'success')
    return {
      status: 'error',
      hash: res.hash,
      result: res.result,
      error: `${TRUSTLINE_MESSAGES.failed}: ${ledgerResultMessage(res.result)}`,
    };
  return { status: 'success', hash: res.hash };
}
