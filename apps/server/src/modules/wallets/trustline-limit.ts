import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  currencyToTicker,
  setTrustlineLimitSchema,
  setTrustlineLimitResponseSchema,
  intentRequiredSchema,
  tickerToCurrency,
  TRUSTLINE_LIMIT_MESSAGES,
  type SetTrustlineLimitRequest,
  type SetTrustlineLimitResponse,
  type IntentRequired,
  SELF_CUSTODY_MESSAGES,
  type WalletKind,
  serverSigns,
  Decimal,
  ledgerResultMessage,
  normalizeTokenValue,
} from '@ledgerpad/shared';
import { badRequest, ledgerUnavailable } from '../../lib/errors';
import { parseInput } from '../../lib/validation';
import { ledgerFailure } from '../../ledger/errors';
import type { Funds } from '../../ledger/funds';
import type { SubmissionOutcome, SubmissionService, SubmitRequest } from '../../ledger/submission-service';
import type { IntentService } from '../../platform/intents';
import { idempotencyKey } from '../../plugins/edge';
import type { WalletService } from './service';
import { declared } from '../../plugins/access';
import { z } from 'zod';

// The Wallets page's "Set limit": a TrustSet from the user's own wallet that changes how much of a
// token the wallet is willing to hold. Only the limit changes; the line's other settings (NoRipple,
// freeze, quality) stay as they are, because a TrustSet without flags leaves them alone.

export interface TrustlineLimitDeps {
  service: Pick<WalletService, 'owned' | 'lines'>;
  /** Absent when the app runs without a ledger: the route then answers 503. */
  submissions?: SubmissionService;
  funds?: Funds;
  /** Self-custody wallets' signing intents (docs/self-custody.md). */
  intents?: IntentService;
}

export async function setTrustlineLimit(
  deps: TrustlineLimitDeps,
  userId: number,
  body: SetTrustlineLimitRequest,
  idempotencyKey?: string,
): Promise<SetTrustlineLimitResponse | IntentRequired> {
  const row = await deps.service.owned(userId, body.walletId);
  const { submissions, funds, intents } = deps;
  if (!submissions || !funds) throw ledgerUnavailable();
  const intentKey = `set-limit:${row.id}:${idempotencyKey ?? randomUUID()}`;
  const selfCustody = !serverSigns(row.kind as WalletKind);
  if (selfCustody) {
    if (!intents) throw badRequest(SELF_CUSTODY_MESSAGES.notSupported);
    const known = idempotencyKey ? await intents.known(intentKey) : undefined;
    if (known) return { status: 'sign', intent: known };
  }
  const previous = idempotencyKey && !selfCustody ? await submissions.existing(intentKey) : undefined;
  if (previous) return limitResult(previous, normalizeTokenValue(body.limit));
  const currency = tickerToCurrency(body.currency);
  const limit = normalizeTokenValue(body.limit);
  // Changes an existing line only: opening a new one costs an owner reserve and is the swap page's
  // "Add Trustline"; a limit typed for a line that isn't there is more likely a mistake.
  const line = (await deps.service.lines(row.address, body.issuer)).find(
    (l) => tickerToCurrency(l.currency) === currency,
  );
  if (!line) throw badRequest(TRUSTLINE_LIMIT_MESSAGES.noLine);
  // The ledger accepts a limit below the balance (the tokens stay, nothing more can arrive), which
  // reads like lost money to the user; refuse it and say what is held.
  if (new Decimal(limit).lt(line.balance)) {
    throw badRequest(TRUSTLINE_LIMIT_MESSAGES.belowBalance(line.balance, currencyToTicker(line.currency)), {
      balance: line.balance,
    });
  }
  const tx: SubmitRequest['tx'] = {
    TransactionType: 'TrustSet',
    LimitAmount: { currency: line.currency, issuer: body.issuer, value: limit },
  };
  if (selfCustody) {
    // Signed in the browser or wallet app; the 'set-trustline-limit' finisher answers as below.
    const intent = await intents!.prepare({
      userId,
      wallet: row,
      purpose: 'set-trustline-limit',
      intentKey,
      txs: [{ tx, purpose: 'set-trustline-limit' }],
      context: { limit },
    });
    return { status: 'sign', intent };
  }
  const req: SubmitRequest = {
    intentKey,
    account: row.address,
    tx,
    purpose: 'set-trustline-limit',
    userId,
    walletId: row.id,
  };
  const signed = await funds.withAccount(row.address, async () => {
    await funds.requireXrp(row.address, { transactions: 1 });
    return submissions.prepare(req);
  });
  return limitResult(await submissions.follow(req, signed), limit);
}

export function limitResult(outcome: SubmissionOutcome, limit: string): SetTrustlineLimitResponse {
  if (outcome.status !== 'success')
    throw ledgerFailure(outcome, `${TRUSTLINE_LIMIT_MESSAGES.failed} ${ledgerResultMessage(outcome.result)}`);
  return { success: true, hash: outcome.hash, limit };
}

/** POST /api/wallets/set-trustline-limit { walletId, issuer, currency, limit } (signed-in users). */
export function registerTrustlineLimit(app: FastifyInstance, deps: TrustlineLimitDeps): void {
  app.post(
    '/api/wallets/set-trustline-limit',
    declared('user', {
      summary: "Change the limit of one of a wallet's trust lines.",
      body: setTrustlineLimitSchema,
      response: z.union([setTrustlineLimitResponseSchema, intentRequiredSchema]),
    }),
    async (request: FastifyRequest): Promise<SetTrustlineLimitResponse | IntentRequired> => {
      const body = parseInput(setTrustlineLimitSchema, request.body);
      return await setTrustlineLimit(deps, request.user!.id, body, idempotencyKey(request));
    },
  );
}
