import { randomBytes, randomUUID } from 'node:crypto';
import { and, eq, gt, isNull } from 'drizzle-orm';
import { convertStringToHex, RippledError } from 'xrpl';
import {
  CHALLENGE_TTL_MS,
  SELF_CUSTODY_MESSAGES,
  WALLET_APP_NAMES,
  type AddSelfCustodyWalletRequest,
  type OwnershipChallenge,
  type OwnershipChallengeRequest,
  type TxJson,
  type WalletSummary,
} from '@ledgerpad/shared';
import type { Db } from '../../db/client';
import type { XrplConnection } from '../../ledger/connection';
import { badRequest, ledgerUnavailable } from '../../lib/errors';
import { authorizeKey, checkSigned, type AccountKeys } from '../../platform/intents/check';
import { walletChallenges } from './schema';
import type { WalletService } from './service';

// Adding a self-custody wallet (docs/self-custody.md): the server hands out a one-time challenge
// (random, bound to the user and the address, 5 minutes, used once), the wallet signs it — an
// AccountSet that can never apply (Sequence 0, Fee 0, a LastLedgerSequence already passed) carrying
// the challenge in a memo, because signing a transaction is what every xrpl-connect adapter can do
// (WalletConnect and Xaman sign no free-form messages) — and the server checks the signature, that
// the transaction is exactly the challenge, and that the key controls the account on the ledger:
// its master key (the only key of an account not funded yet) or its current regular key.

const MEMO_TYPE = convertStringToHex('ledgerpad/ownership-proof');
const MEMO_FORMAT = convertStringToHex('text/plain');

export class OwnershipProofs {
  constructor(
    private readonly deps: {
      db: Db;
      connection?: XrplConnection;
      wallets: WalletService;
      /** The origin users see (named in the proof's text, so a proof made for another site reads so). */
      origin: () => string;
    },
  ) {}

  async challenge(userId: number, req: OwnershipChallengeRequest): Promise<OwnershipChallenge> {
    const nonce = randomBytes(32).toString('hex');
    const what = req.kind === 'browser' ? 'a browser key' : WALLET_APP_NAMES[req.app!];
    const message =
      `Ledgerpad (${this.deps.origin()}): prove that you control ${req.address} (${what}). ` +
      `This transaction can never be submitted and moves nothing. Challenge ${nonce}`;
    const passed = this.deps.connection?.isConnected() ? Math.max(1, (await this.validatedIndex()) - 1) : 1;
    const tx: TxJson = {
      TransactionType: 'AccountSet',
      Account: req.address,
      // Sequence 0 (no ticket) is never current, Fee 0 is below any base fee, and the
      // LastLedgerSequence has passed: three reasons the ledger can never apply it.
      Sequence: 0,
      Fee: '0',
      LastLedgerSequence: passed,
      Memos: [
        { Memo: { MemoType: MEMO_TYPE, MemoFormat: MEMO_FORMAT, MemoData: convertStringToHex(message) } },
      ],
    };
    const id = randomUUID();
    const expiresAt = new Date(Date.now() + CHALLENGE_TTL_MS);
    await this.deps.db.insert(walletChallenges).values({
      id,
      userId,
      address: req.address,
      kind: req.kind,
      walletApp: req.kind === 'external' ? req.app! : null,
      nonce,
      txJson: JSON.stringify(tx),
      expiresAt,
    });
    return { challengeId: id, tx, message, expiresAt: expiresAt.toISOString() };
  }

  private async validatedIndex(): Promise<number> {
    const res = await this.deps.connection!.client.request({ command: 'ledger_current' });
    return res.result.ledger_current_index - 1;
  }

  /**
   * The signed proof of a challenge: consumed first (one try per challenge), then checked; on
   * success the wallet joins the user's list with its kind, app and public key — and no secret.
   */
  async add(userId: number, body: AddSelfCustodyWalletRequest): Promise<WalletSummary> {
    if (!this.deps.connection?.isConnected()) throw ledgerUnavailable();
    const [challenge] = await this.deps.db
      .update(walletChallenges)
      .set({ usedAt: new Date() })
      .where(
        and(
          eq(walletChallenges.id, body.challengeId),
          eq(walletChallenges.userId, userId),
          isNull(walletChallenges.usedAt),
          gt(walletChallenges.expiresAt, new Date()),
        ),
      )
      .returning();
    if (!challenge) throw badRequest(SELF_CUSTODY_MESSAGES.challengeExpired);
    const expected = JSON.parse(challenge.txJson) as TxJson;
    const signed = checkSigned(expected, body.signedTx);
    if (signed.tx.Account !== challenge.address)
      throw badRequest(SELF_CUSTODY_MESSAGES.challengeWrongAddress);
    authorizeKey(challenge.address, signed.signingPubKey, await this.accountKeys(challenge.address));
    return this.deps.wallets.adoptSelfCustody(userId, {
      address: challenge.address,
      publicKey: signed.signingPubKey,
      kind: challenge.kind as 'browser' | 'external',
      walletApp: challenge.walletApp,
      name: body.name,
    });
  }

  private async accountKeys(address: string): Promise<AccountKeys | null> {
    try {
      const info = await this.deps.connection!.client.request({
        command: 'account_info',
        account: address,
        ledger_index: 'validated',
      });
      const d = info.result.account_data as { Flags: number; RegularKey?: string };
      return { flags: d.Flags, regularKey: d.RegularKey };
    } catch (err) {
      if (
        err instanceof RippledError &&
        (err.data as { error?: string } | undefined)?.error === 'actNotFound'
      )
        return null;
      throw err;
    }
  }
}
