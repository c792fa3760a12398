import type { z } from 'zod';
import { randomUUID } from 'node:crypto';
import type { Client } from 'xrpl';
import type { burnRequestSchema } from '@ledgerpad/shared';
import {
  BURN_MESSAGES,
  displayTicker,
  isHexCurrency,
  isLpCurrency,
  tickerToCurrency,
  type BurnResult,
  type BurnToken,
  type BurnWallet,
  Decimal,
  dropsToXrp,
  insufficientTokenMessage,
  ledgerResultMessage,
  SELF_CUSTODY_MESSAGES,
  serverSigns,
  type IntentRequired,
  type WalletKind,
} from '@ledgerpad/shared';
import { requireAccount } from '../../ledger/account-root';
import { ledgerFailure } from '../../ledger/errors';
import type { Funds } from '../../ledger/funds';
import type { SubmissionOutcome, SubmissionService } from '../../ledger/submission-service';
import { badRequest, ledgerUnavailable, notFound } from '../../lib/errors';
import { requireNeed, type FundsNeed, type IntentFinisher, type IntentService } from '../../platform/intents';
import type { WalletsApi } from '../wallets';

// The token burner: a holder pays tokens back to their issuer, which takes them out of circulation
// (an issuer's balance of its own token is not a holding, so the obligation simply shrinks). Every
// check runs before anything is signed; the answer reads the issuer's obligations from the ledger
// once the payment is validated (docs/burner.md).

export interface BurnDeps {
  wallets: Pick<WalletsApi, 'list' | 'lines' | 'accountState'>;
  /** Absent when the app runs without a ledger: burns answer 503. */
  client?: Client;
  submissions?: SubmissionService;
  funds?: Funds;
  /** Self-custody wallets' signing intents (docs/self-custody.md). */
  intents?: IntentService;
}

/** What the finisher of a self-custody wallet's burn needs. */
interface BurnIntentContext {
  issuer: string;
  currency: string;
  amount: string;
  need: FundsNeed;
}

export class BurnService {
  constructor(private readonly deps: BurnDeps) {}

  /** The user's wallets with XRP and every token they hold (positive balance, LP tokens left out). */
  async wallets(userId: number): Promise<BurnWallet[]> {
    const { wallets } = this.deps;
    const rows = await wallets.list(userId);
    return Promise.all(
      rows.map(async (row) => {
        const [state, lines] = await Promise.all([
          wallets.accountState(row.address),
          wallets.lines(row.address),
        ]);
        const tokens: BurnToken[] = [];
        for (const line of lines) {
          if (isLpCurrency(line.currency)) continue;
          const balance = new Decimal(line.balance);
          if (balance.lte(0)) continue;
          tokens.push({
            tokenCode: line.currency,
            issuer: line.account,
            balance: balance.toFixed(),
            ascii: displayTicker(line.currency),
          });
        }
        return {
          id: row.id,
          walletAddress: row.address,
          xrpBalance: dropsToXrp(state.balanceDrops),
          tokens,
        };
      }),
    );
  }

  /** POST /api/burn/burn: one validated Payment of `amount` from the wallet to the issuer. */
  async burn(
    userId: number,
    b: z.output<typeof burnRequestSchema>,
    idempotencyKey?: string,
  ): Promise<BurnResult | IntentRequired> {
    const { client, submissions, funds } = this.deps;
    if (!client || !submissions || !funds) throw ledgerUnavailable();
    const currency = currencyCode(b.tokenCode);
    if (!currency) throw badRequest(BURN_MESSAGES.invalidInput);
    if (isLpCurrency(currency)) throw badRequest(BURN_MESSAGES.lpToken);

    const wallet = (await this.deps.wallets.list(userId)).find((w) => w.address === b.walletAddress);
    if (!wallet) throw notFound(BURN_MESSAGES.walletNotFound);
    if (wallet.address === b.issuerAddress) throw badRequest(BURN_MESSAGES.issuerCannotBurn);

    // A retried request (same Idempotency-Key) answers with the first one's transaction, without
    // checking the balance it already lowered.
    const intentKey = `burn:${userId}:${idempotencyKey ?? randomUUID()}`;
    const selfCustody = !serverSigns(wallet.kind as WalletKind);
    if (selfCustody) {
      if (!this.deps.intents) throw badRequest(SELF_CUSTODY_MESSAGES.notSupported);
      const known = idempotencyKey ? await this.deps.intents.known(intentKey) : undefined;
      if (known) return { status: 'sign', intent: known };
    }
    let outcome = idempotencyKey && !selfCustody ? await submissions.existing(intentKey) : undefined;
    if (!outcome) {
      const lines = await this.deps.wallets.lines(wallet.address, b.issuerAddress);
      const line = lines.find((l) => l.account === b.issuerAddress && l.currency.toUpperCase() === currency);
      // No line with it: the issuer may not even be an account (a line proves it is one).
      if (!line) await requireAccount(client, b.issuerAddress, 'issuer', 'issuerAddress');
      const held = Decimal.max(new Decimal(line?.balance ?? 0), 0);
      const ticker = displayTicker(currency);
      if (new Decimal(b.amount).gt(held)) {
        throw badRequest(
          `${BURN_MESSAGES.moreThanHeld} ${insufficientTokenMessage(held, b.amount, ticker)}`,
          {
            balance: held.toFixed(),
            available: held.toFixed(),
            needed: new Decimal(b.amount).toFixed(),
          },
        );
      }
      const req = {
        intentKey,
        account: wallet.address,
        tx: {
          TransactionType: 'Payment',
          Destination: b.issuerAddress,
          Amount: {
            currency: line!.currency,
            issuer: b.issuerAddress,
            value: new Decimal(b.amount).toFixed(),
          },
        },
        purpose: 'burn',
        userId,
        walletId: wallet.id,
      };
      // The burn's network fee from above the wallet's reserve (checked again under its lease).
      await funds.requireXrp(wallet.address, { transactions: 1 });
      if (selfCustody) {
        // The wallet signs the exact payment in the browser or its app; the 'burn' finisher
        // answers as below, the tokens and the fee checked again before it is sent.
        const need: FundsNeed = {
          transactions: 1,
          tokens: [{ currency: line!.currency, issuer: b.issuerAddress, value: b.amount, name: ticker }],
        };
        await requireNeed(funds, wallet.address, need);
        const context: BurnIntentContext = { issuer: b.issuerAddress, currency, amount: b.amount, need };
        const intent = await this.deps.intents!.prepare({
          userId,
          wallet,
          purpose: 'burn',
          intentKey,
          txs: [{ tx: req.tx, purpose: 'burn' }],
          context: context as unknown as Record<string, unknown>,
        });
        return { status: 'sign', intent };
      }
      const row = await funds.withAccount(wallet.address, async () => {
        await funds.requireToken(
          wallet.address,
          { currency: line!.currency, issuer: b.issuerAddress },
          b.amount,
          ticker,
        );
        await funds.requireXrp(wallet.address, { transactions: 1 });
        return submissions.prepare(req);
      });
      outcome = await submissions.follow(req, row);
    }
    return this.burned(client, outcome, wallet.address, {
      issuer: b.issuerAddress,
      currency,
      amount: b.amount,
    });
  }

  /** The finisher of a self-custody wallet's burn (registered by the module). */
  finisher(): IntentFinisher {
    return {
      recheck: async (intent) => {
        if (!this.deps.funds) throw ledgerUnavailable();
        await requireNeed(
          this.deps.funds,
          intent.account,
          (intent.context as unknown as BurnIntentContext).need,
        );
      },
      finish: async (intent, [outcome]) => {
        if (!this.deps.client) throw ledgerUnavailable();
        return this.burned(
          this.deps.client,
          outcome!,
          intent.account,
          intent.context as unknown as BurnIntentContext,
        );
      },
    };
  }

  /** The answer of a burn from its payment's outcome (both kinds of wallet). */
  private async burned(
    client: Client,
    outcome: SubmissionOutcome,
    address: string,
    b: { issuer: string; currency: string; amount: string },
  ): Promise<BurnResult> {
    if (outcome.status !== 'success') {
      throw ledgerFailure(outcome, `${BURN_MESSAGES.burnFailed} ${ledgerResultMessage(outcome.result)}`);
    }
    return {
      status: 'success',
      burned: burnedBy(outcome, address, b.issuer, b.currency) ?? new Decimal(b.amount).toFixed(),
      token: displayTicker(b.currency),
      tokenCode: b.currency,
      issuer: b.issuer,
      hash: outcome.hash,
      outstandingSupply: await this.outstanding(client, b.issuer, b.currency, outcome.ledgerIndex),
    };
  }

  /** The issuer's obligations in `currency` as of the ledger that validated the burn (or later). */
  private async outstanding(
    client: Client,
    issuer: string,
    currency: string,
    ledgerIndex: number | null,
  ): Promise<string> {
    const res = await client.request({
      command: 'gateway_balances',
      account: issuer,
      ledger_index: ledgerIndex ?? 'validated',
    });
    const obligations = (res.result.obligations ?? {}) as Record<string, string>;
    const key = Object.keys(obligations).find((k) => k.toUpperCase() === currency);
    return new Decimal(key ? obligations[key]! : 0).toFixed();
  }
}

/** The ledger code for a code or ticker the client sent; undefined when it can't be one. */
function currencyCode(token: string): string | undefined {
  if (isHexCurrency(token)) return token.toUpperCase();
  if (token.toUpperCase() === 'XRP') return undefined;
  try {
    return tickerToCurrency(token);
  } catch {
    return undefined;
  }
}

/** What the wallet's balance of the token went down by, from the validated metadata. */
function burnedBy(
  outcome: SubmissionOutcome,
  wallet: string,
  issuer: string,
  currency: string,
): string | undefined {
  const mine = outcome.balanceChanges.find((c) => c.account === wallet);
  const change = mine?.balances.find((x) => x.issuer === issuer && x.currency.toUpperCase() === currency);
  return change ? new Decimal(change.value).abs().toFixed() : undefined;
}
