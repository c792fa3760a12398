import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  currencyToTicker,
  setTrustlineLimitSchema,
  tickerToCurrency,
  TRUSTLINE_LIMIT_MESSAGES,
  type SetTrustlineLimitRequest,
  type SetTrustlineLimitResponse,
  Decimal,
  normalizeTokenValue,
} from '@ledgerpad/shared';
import { AppError } from '../../lib/errors';
import { parseInput } from '../../lib/validation';
import { LEDGER_UNAVAILABLE_MESSAGE, toLedgerAppError } from '../../ledger/errors';
import type { SubmissionService } from '../../ledger/submission-service';
import type { WalletService } from './service';

// The Wallets page's "Set limit": a TrustSet from the user's own wallet that changes how much of a
// token the wallet is willing to hold. Only the limit changes; the line's other settings (NoRipple,
// freeze, quality) stay as they are, because a TrustSet without flags leaves them alone.

export interface TrustlineLimitDeps {
  service: Pick<WalletService, 'owned' | 'lines'>;
  /** Absent when the app runs without a ledger: the route then answers 503. */
  submissions?: SubmissionService;
}

export async function setTrustlineLimit(
  deps: TrustlineLimitDeps,
  userId: number,
  body: SetTrustlineLimitRequest,
): Promise<SetTrustlineLimitResponse> {
  const row = await deps.service.owned(userId, body.walletId);
  if (!deps.submissions) throw new AppError('LEDGER_UNAVAILABLE', LEDGER_UNAVAILABLE_MESSAGE);
  const currency = tickerToCurrency(body.currency);
  const limit = normalizeTokenValue(body.limit);
  // Changes an existing line only: opening a new one costs an owner reserve and is the swap page's
  // "Add Trustline"; a limit typed for a line that isn't there is more likely a mistake.
  const line = (await deps.service.lines(row.address, body.issuer)).find(
    (l) => tickerToCurrency(l.currency) === currency,
  );
  if (!line) throw new AppError('BAD_REQUEST', TRUSTLINE_LIMIT_MESSAGES.noLine);
  // The ledger accepts a limit below the balance (the tokens stay, nothing more can arrive), which
  // reads like lost money to the user; refuse it and say what is held.
  if (new Decimal(limit).lt(line.balance)) {
    throw new AppError(
      'BAD_REQUEST',
      TRUSTLINE_LIMIT_MESSAGES.belowBalance(line.balance, currencyToTicker(line.currency)),
      { balance: line.balance },
    );
  }
  const outcome = await deps.submissions.submit({
    intentKey: `set-limit:${row.id}:${randomUUID()}`,
    account: row.address,
    tx: {
      TransactionType: 'TrustSet',
      LimitAmount: { currency: line.currency, issuer: body.issuer, value: limit },
    },
    purpose: 'set-trustline-limit',
    userId,
    walletId: row.id,
  });
  if (outcome.status !== 'success') {
    throw new AppError('BAD_REQUEST', TRUSTLINE_LIMIT_MESSAGES.failed, { result: outcome.result });
  }
  return { success: true, hash: outcome.hash, limit };
}

/** POST /api/wallets/set-trustline-limit { walletId, issuer, currency, limit } (signed-in users). */
export function registerTrustlineLimit(app: FastifyInstance, deps: TrustlineLimitDeps): void {
  app.post(
    '/api/wallets/set-trustline-limit',
    { config: { access: 'user' } },
    async (request: FastifyRequest): Promise<SetTrustlineLimitResponse> => {
      const body = parseInput(setTrustlineLimitSchema, request.body);
      try {
        return await setTrustlineLimit(deps, request.user!.id, body);
      } catch (err) {
        throw toLedgerAppError(err);
      }
    },
  );
}
