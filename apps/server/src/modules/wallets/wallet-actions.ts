import { randomUUID } from 'node:crypto';
import { convertStringToHex, TrustSetFlags } from 'xrpl';
import {
  currencyToTicker,
  resolveDestination,
  ledgerResultMessage,
  tickerToCurrency,
  WALLET_MESSAGES,
  type RemoveTrustlineRequest,
  type TransferRequest,
  type TransferResponse,
  type WalletKind,
  type IntentRequired,
  type RemoveTrustlineResponse,
  serverSigns,
  Decimal,
  dropsToXrp,
  normalizeTokenValue,
  xrpToDrops,
  type LedgerAmount,
} from '@ledgerpad/shared';
import { badRequest, fieldError, ledgerUnavailable } from '../../lib/errors';
import { accountMissing, ledgerFailure } from '../../ledger/errors';
import type { Funds } from '../../ledger/funds';
import type {
  SubmissionOutcome,
  SubmissionService,
  SubmitRequest,
  TxRequest,
} from '../../ledger/submission-service';
import type { IntentService } from '../../platform/intents';
import { WalletReads } from './wallet-reads';

/** What a transfer spends, checked before it is signed (kept in a self-custody intent for its recheck). */
export type TransferSpend =
  { xrp: string } | { token: { currency: string; issuer: string }; value: string; ownIssue: boolean };

// The signed actions of wallets: a transfer and a trust line's removal, checked under the wallet's
// funds lease and signed by the server, or prepared as an intent for a self-custody wallet.
export abstract class WalletActions extends WalletReads {
  private get submissions(): SubmissionService {
    if (!this.deps.submissions) throw ledgerUnavailable();
    return this.deps.submissions;
  }

  private get funds(): Funds {
    if (!this.deps.funds) throw ledgerUnavailable();
    return this.deps.funds;
  }

  /** Checks and signs one transaction of `account` under its funds lease, then follows it to the end. */
  private async checkedSubmit(req: SubmitRequest, check: () => Promise<unknown>): Promise<SubmissionOutcome> {
    const done = await this.submissions.existing(req.intentKey);
    if (done) return done;
    const row = await this.funds.withAccount(req.account, async () => {
      await check();
      return this.submissions.prepare(req);
    });
    return this.submissions.follow(req, row);
  }

  async transfer(
    userId: number,
    body: TransferRequest,
    idempotencyKey?: string,
  ): Promise<TransferResponse | IntentRequired> {
    // A bot filled the hidden field: refuse like any failed transfer, without telling it why.
    if (body.honeypot) throw badRequest(WALLET_MESSAGES.transferFailed);
    const row = await this.owned(userId, body.walletId);
    const intentKey = `transfer:${userId}:${idempotencyKey ?? randomUUID()}`;
    // A retried request (same Idempotency-Key) gets the first attempt's result, never a second payment.
    if (idempotencyKey && !serverSigns(row.kind as WalletKind)) {
      const known = await this.intentService.known(intentKey);
      if (known) return { status: 'sign', intent: known };
    }
    const previous =
      idempotencyKey && serverSigns(row.kind as WalletKind)
        ? await this.submissions.existing(intentKey)
        : undefined;
    if (previous) return this.transferResult(previous);

    const resolved = resolveDestination(body.recipient, this.deps.network, 'recipient');
    if ('error' in resolved) {
      throw fieldError('recipient', resolved.error);
    }
    const destination = resolved.address;
    let tag = body.destinationTag ?? undefined;
    if (resolved.tag !== undefined) {
      if (tag !== undefined && tag !== resolved.tag) {
        throw badRequest('The destination tag does not match the X-address.');
      }
      tag = resolved.tag;
    }
    if (destination === row.address) throw badRequest('You cannot send to the same wallet.');

    const state = await this.accountState(row.address);
    if (!state.activated) throw badRequest(WALLET_MESSAGES.exceedsAvailable);
    const recipient = await this.recipientInfo(destination);
    // Checked here so the user reads why, instead of a failed transaction (tecDST_TAG_NEEDED).
    if (recipient.requireTag && tag === undefined) {
      throw badRequest('The recipient requires a destination tag.');
    }
    let amount: LedgerAmount;
    // Checked before signing (and again under the wallet's funds lease): the amount and the network
    // fee from what is left after the reserve, the transactions in flight and the fees owed.
    let spend: TransferSpend;
    if (!body.token) {
      let drops: bigint;
      try {
        drops = xrpToDrops(body.amount);
      } catch {
        throw badRequest('Enter an XRP amount with at most 6 decimals.');
      }
      if (drops <= 0n) throw badRequest('Amount must be greater than zero.');
      spend = { xrp: drops.toString() };
      await this.checkTransfer(row.address, spend);
      if (!recipient.activated) {
        const base = (await this.reserveDrops(0)).base;
        if (drops < base) {
          throw badRequest(
            `The recipient account is not activated yet: send at least ${dropsToXrp(base)} XRP to activate it.`,
          );
        }
      }
      amount = drops.toString();
    } else {
      let value: string;
      try {
        value = normalizeTokenValue(body.amount);
      } catch {
        throw badRequest('Enter a valid token amount.');
      }
      if (new Decimal(value).lte(0)) throw badRequest('Amount must be greater than zero.');
      const currency = tickerToCurrency(body.token.currency);
      const token = { currency, issuer: body.token.issuer };
      // The issuer sends its own token out of nothing; anyone else needs the tokens.
      spend = { token, value, ownIssue: body.token.issuer === row.address };
      await this.checkTransfer(row.address, spend);
      // Tokens can only go to an account: a recipient that does not exist is named (issue 34).
      if (!recipient.activated) throw accountMissing('recipient', destination, 'recipient');
      if (destination !== body.token.issuer) {
        const theirs = (await this.lines(destination, body.token.issuer)).find(
          (l) => tickerToCurrency(l.currency) === currency,
        );
        if (!theirs) throw badRequest('The recipient has no trust line for this token.');
      }
      amount = { currency, issuer: body.token.issuer, value };
    }

    const tx: Record<string, unknown> & { TransactionType: string } = {
      TransactionType: 'Payment',
      Destination: destination,
      Amount: amount,
    };
    if (tag !== undefined) tx.DestinationTag = tag;
    if (body.memo) {
      tx.Memos = [
        { Memo: { MemoType: convertStringToHex('text/plain'), MemoData: convertStringToHex(body.memo) } },
      ];
    }
    if (!serverSigns(row.kind as WalletKind)) {
      // The key is in the user's browser or wallet app: the exact payment, recorded, to be signed
      // there (docs/self-custody.md); the intent's finisher answers as below once it is submitted.
      const intent = await this.intentService.prepare({
        userId,
        wallet: row,
        purpose: 'transfer',
        intentKey,
        txs: [{ tx: tx as TxRequest, purpose: 'transfer' }],
        context: { spend },
      });
      return { status: 'sign', intent };
    }
    const outcome = await this.checkedSubmit(
      { intentKey, account: row.address, tx: tx as TxRequest, purpose: 'transfer', userId, walletId: row.id },
      () => this.checkTransfer(row.address, spend),
    );
    return this.transferResult(outcome);
  }

  /** The funds a transfer needs: the amount (or the tokens) and the network fee. */
  async checkTransfer(address: string, spend: TransferSpend): Promise<void> {
    if ('xrp' in spend) {
      await this.funds.requireXrp(address, { amount: BigInt(spend.xrp), transactions: 1 });
      return;
    }
    if (!spend.ownIssue)
      await this.funds.requireToken(
        address,
        spend.token,
        spend.value,
        currencyToTicker(spend.token.currency),
      );
    await this.funds.requireXrp(address, { transactions: 1 });
  }

  private get intentService(): IntentService {
    if (!this.deps.intents) throw ledgerUnavailable();
    return this.deps.intents;
  }

  transferResult(outcome: SubmissionOutcome): TransferResponse {
    if (outcome.status !== 'success') throw ledgerFailure(outcome);
    const d = outcome.deliveredAmount;
    return {
      success: true,
      hash: outcome.hash,
      ledger_index: outcome.ledgerIndex,
      delivered_amount: d === undefined ? '' : typeof d === 'string' ? dropsToXrp(d) : d.value,
    };
  }

  async removeTrustline(
    userId: number,
    body: RemoveTrustlineRequest,
    idempotencyKey?: string,
  ): Promise<RemoveTrustlineResponse | IntentRequired> {
    const row = await this.owned(userId, body.walletId);
    const intentKey = `remove-trustline:${row.id}:${idempotencyKey ?? randomUUID()}`;
    const selfCustody = !serverSigns(row.kind as WalletKind);
    if (selfCustody && idempotencyKey) {
      const known = await this.intentService.known(intentKey);
      if (known) return { status: 'sign', intent: known };
    }
    // A retried request answers from the first one's transaction (the line is gone by then).
    const previous = idempotencyKey && !selfCustody ? await this.submissions.existing(intentKey) : undefined;
    if (previous) return this.removedResult(previous);
    const currency = tickerToCurrency(body.currency);
    const line = (await this.lines(row.address, body.issuer)).find(
      (l) => tickerToCurrency(l.currency) === currency,
    );
    if (!line) throw badRequest('This wallet has no trust line for that token.');
    if (new Decimal(line.balance).abs().gt(0)) {
      throw badRequest(
        `This trust line still holds ${line.balance} ${currencyToTicker(line.currency)}. Send or burn the tokens first: only an empty trust line can be removed.`,
      );
    }
    // Back to the default state (limit 0, no-ripple, not frozen) so the ledger deletes the line
    // and returns its owner reserve.
    const tx: TxRequest = {
      TransactionType: 'TrustSet',
      LimitAmount: { currency: line.currency, issuer: body.issuer, value: '0' },
      QualityIn: 0,
      QualityOut: 0,
      Flags: TrustSetFlags.tfSetNoRipple | TrustSetFlags.tfClearFreeze,
    };
    if (selfCustody) {
      // Signed in the browser or wallet app (docs/self-custody.md); the 'remove-trustline'
      // finisher answers as below.
      const intent = await this.intentService.prepare({
        userId,
        wallet: row,
        purpose: 'remove-trustline',
        intentKey,
        txs: [{ tx, purpose: 'remove-trustline' }],
        context: {},
      });
      return { status: 'sign', intent };
    }
    const outcome = await this.checkedSubmit(
      { intentKey, account: row.address, tx, purpose: 'remove-trustline', userId, walletId: row.id },
      () => this.funds.requireXrp(row.address, { transactions: 1 }),
    );
    return this.removedResult(outcome);
  }

  /** The answer of a trust line's removal from its TrustSet's outcome (both kinds of wallet). */
  removedResult(outcome: SubmissionOutcome): RemoveTrustlineResponse {
    if (outcome.status !== 'success')
      throw ledgerFailure(
        outcome,
        `${WALLET_MESSAGES.removeTrustlineFailed} ${ledgerResultMessage(outcome.result)}`,
      );
    return { success: true, hash: outcome.hash };
  }
}
