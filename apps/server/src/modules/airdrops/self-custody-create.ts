import { eq } from 'drizzle-orm';
import { Wallet } from 'xrpl';
import {
  AIRDROP_MESSAGES,
  Decimal,
  currencyToTicker,
  ledgerResultMessage,
  type CreateAirdropResult,
  type IntentRequired,
} from '@ledgerpad/shared';
import type { Db } from '../../db/client';
import type { Keyring } from '../../keys/envelope';
import { ledgerFailure } from '../../ledger/errors';
import type { Funds } from '../../ledger/funds';
import type { SubmissionOutcome, TxRequest } from '../../ledger/submission-service';
import { badRequest } from '../../lib/errors';
import { sealWallet } from '../../platform/custody';
import { wallets as walletsTable } from '../../platform/custody-schema';
import type { IntentFinisher, IntentRow, IntentService } from '../../platform/intents';
import type { JobRunner } from '../../platform/jobs';
import {
  AIRDROP_CREATE_JOB,
  AIRDROP_WALLET_ROLE,
  recordAirdrop,
  type AirdropValues,
  type CreateJobPayload,
} from './record';
import { airdrops } from './schema';

// An airdrop created from a self-custody wallet (docs/self-custody.md "Airdrop creation"). The
// custodial job signs three source transactions with the airdrop wallet's trust line between the
// funding and the deposit; a wallet the server cannot sign for is asked once, for one intent:
//   1. the airdrop wallet's funding (Payment; the wallet is made now, so its address is in it),
//   2. the airdrop fee to the platform fee wallet (when there is one),
//   3. a CheckCreate of the whole allocation to the airdrop wallet.
// Each step is sent only after the one before succeeded (a sequence intent). Once the three
// applied, the finisher records the airdrop and its job, which sets the airdrop wallet's line and
// cashes the Check for exactly the allocation (CheckCash: platform-signed, by the airdrop wallet).

/** The intent purpose (and finisher) of a self-custody airdrop creation. */
export const AIRDROP_CREATE_INTENT = 'airdrop-create';

/** The intent key of a creation request: a retry answers the same intent. */
export const createIntentKey = (userId: number, requestKey: string): string =>
  `${AIRDROP_CREATE_INTENT}:${userId}:${requestKey}`;

/** What the intent keeps for its finisher: the airdrop's row and its job's payload, as JSON. */
interface CreateContext {
  values: Omit<AirdropValues, 'expiry'> & { expiry: string };
  payload: Omit<CreateJobPayload, 'airdropId' | 'selfCustody'>;
  airdropWalletId: number;
  airdropAddress: string;
}

export interface SelfCustodyCreationDeps {
  db: Db;
  jobs: JobRunner;
  intents: IntentService;
  keyring: Keyring;
  funds?: Funds;
}

const tokenAmount = (p: CreateContext['payload']) => ({
  currency: p.currency,
  issuer: p.issuer,
  value: new Decimal(p.total).toFixed(),
});

export class SelfCustodyCreation {
  constructor(private readonly deps: SelfCustodyCreationDeps) {}

  /** The intent the source wallet signs. The airdrop itself is recorded only once it applied. */
  async prepare(
    wallet: { id: number; address: string },
    values: AirdropValues,
    payload: CreateContext['payload'],
    intentKey: string,
  ): Promise<IntentRequired> {
    // The airdrop wallet is the platform's (custodial: it pays the claims), sealed before its
    // address is handed out. An intent never signed leaves it unfunded: nothing on the ledger.
    const fresh = Wallet.generate();
    const [row] = await this.deps.db
      .insert(walletsTable)
      .values({
        userId: payload.userId,
        role: AIRDROP_WALLET_ROLE,
        name: `Airdrop of ${values.projectName}`.slice(0, 100),
        address: fresh.classicAddress,
        ...sealWallet(this.deps.keyring, fresh),
      })
      .returning({ id: walletsTable.id, address: walletsTable.address });
    const to = row!.address;
    const txs: Array<{ tx: TxRequest; purpose: string }> = [
      {
        tx: { TransactionType: 'Payment', Destination: to, Amount: payload.fundDrops },
        purpose: 'airdrop:fund',
      },
    ];
    if (payload.feeAddress && BigInt(payload.feeDrops) > 0n)
      txs.push({
        tx: { TransactionType: 'Payment', Destination: payload.feeAddress, Amount: payload.feeDrops },
        purpose: 'airdrop:fee',
      });
    txs.push({
      tx: { TransactionType: 'CheckCreate', Destination: to, SendMax: tokenAmount(payload) },
      purpose: 'airdrop:check',
    });
    const context: CreateContext = {
      values: { ...values, expiry: (values.expiry as Date).toISOString() },
      payload,
      airdropWalletId: row!.id,
      airdropAddress: to,
    };
    const intent = await this.deps.intents.prepare({
      userId: payload.userId,
      wallet,
      purpose: AIRDROP_CREATE_INTENT,
      intentKey,
      txs,
      context: context as unknown as Record<string, unknown>,
    });
    return { status: 'sign', intent };
  }

  finisher(): IntentFinisher {
    return {
      // Right before the blobs go out: the funding, the fee, the Check's reserve and the tokens.
      recheck: async (intent) => {
        const funds = this.deps.funds;
        if (!funds) return;
        const { payload } = intent.context as unknown as CreateContext;
        await funds.requireToken(
          intent.account,
          { currency: payload.currency, issuer: payload.issuer },
          payload.total,
          currencyToTicker(payload.currency),
        );
        await funds.requireXrp(intent.account, {
          amount: BigInt(payload.fundDrops),
          platformFee: BigInt(payload.feeDrops),
          transactions: (intent.txs as unknown[]).length,
          newObjects: 1,
        });
      },
      finish: (intent, outcomes) => this.finish(intent, outcomes),
    };
  }

  /**
   * The three applied: the airdrop and its job, once (a restart's second run finds the airdrop of
   * this airdrop wallet under the wallet's row lock). A step that failed answers the ledger's word;
   * the steps before it stay done (the XRP already in the airdrop wallet is the admin's to refund).
   */
  private async finish(
    intent: IntentRow,
    outcomes: Array<SubmissionOutcome | undefined>,
  ): Promise<CreateAirdropResult> {
    const failed = outcomes.find((o) => o && o.status !== 'success');
    if (failed)
      throw ledgerFailure(
        failed,
        `${AIRDROP_MESSAGES.createFailed}: ${ledgerResultMessage(failed.result)} (${failed.result})`,
      );
    const ctx = intent.context as unknown as CreateContext;
    const checkId = createdCheck(outcomes[outcomes.length - 1]);
    if (!checkId) throw badRequest(AIRDROP_MESSAGES.createFailed);
    return this.deps.db.transaction(async (tx) => {
      await tx
        .select({ id: walletsTable.id })
        .from(walletsTable)
        .where(eq(walletsTable.id, ctx.airdropWalletId))
        .for('update');
      const [earlier] = await tx
        .select({ id: airdrops.id, jobId: airdrops.jobId })
        .from(airdrops)
        .where(eq(airdrops.airdropWalletId, ctx.airdropWalletId));
      if (earlier?.jobId) return { success: true as const, id: earlier.id, jobId: earlier.jobId };
      const created = await recordAirdrop(
        tx as unknown as Db,
        this.deps.jobs,
        {
          ...ctx.values,
          expiry: new Date(ctx.values.expiry),
          airdropWalletId: ctx.airdropWalletId,
          airdropAddress: ctx.airdropAddress,
        },
        { ...ctx.payload, selfCustody: { airdropWalletId: ctx.airdropWalletId, checkId } },
        `${AIRDROP_CREATE_JOB}:intent:${intent.id}`,
      );
      // The airdrop wallet now belongs to its job, as a custodial creation's does.
      await tx
        .update(walletsTable)
        .set({ jobId: created.jobId, name: `Airdrop ${created.id}` })
        .where(eq(walletsTable.id, ctx.airdropWalletId));
      return created;
    });
  }
}

/** The Check a CheckCreate made: its ledger entry's index, from the validated metadata. */
function createdCheck(outcome: SubmissionOutcome | undefined): string | undefined {
  const nodes = (outcome?.meta as { AffectedNodes?: Array<Record<string, unknown>> } | undefined)
    ?.AffectedNodes;
  for (const n of nodes ?? []) {
    const c = n.CreatedNode as { LedgerEntryType?: string; LedgerIndex?: string } | undefined;
    if (c?.LedgerEntryType === 'Check' && c.LedgerIndex) return c.LedgerIndex;
  }
  return undefined;
}
