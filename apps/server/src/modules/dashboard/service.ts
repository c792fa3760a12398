import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { AccountSetAsfFlags, TrustSetFlags, type AccountLinesTrustline } from 'xrpl';
import {
  DASHBOARD_MESSAGES as M,
  RLUSD_CURRENCY_HEX,
  sameCurrency,
  type AuthorizeTrustLineRequest,
  type DeployClaimView,
  type DashboardSetLimitRequest,
  type DashboardTrustLine,
  type DashboardWriteResponse,
  type FreezeTrustLineRequest,
  type IssuerWalletResponse,
  type SyncTrustLinesRequest,
  type SyncTrustLinesResponse,
  type TrustLinesResponse,
  Decimal,
  type IntentRequired,
} from '@ledgerpad/shared';
import { badRequest, ledgerUnavailable, notFound } from '../../lib/errors';
import { accountMissing } from '../../ledger/errors';
import type { Funds } from '../../ledger/funds';
import type { SubmissionOutcome, SubmissionService, TxRequest } from '../../ledger/submission-service';
import type { Platform } from '../../platform';
import { rlusdIssuer } from '../../platform/accounts';
import { STAGED_ROLES, type WalletRow } from '../../platform/custody';
import { wallets as walletsTable } from '../../platform/custody-schema';
import { BLACKHOLE_ADDRESS, waitingClaim } from '../deploy';
import { ListingService, type IssuerState } from '../listing';
import { platformHolders } from '../market';
import { toTokenView, type TokenRegistry, type TokenRow } from '../tokens';
import { setTrustlineLimit, type WalletsApi } from '../wallets';

// The issuer's dashboard: what the ledger says about a deployed token's issuer and its holders'
// trust lines, and the issuer's own transactions on them (freeze, authorize, clear RequireAuth,
// blackhole), signed by the issuer wallet the deploy left in custody. Everything shown is read from
// the validated ledger; the token row only says who may look and which wallet signs.

export interface DashboardDeps {
  tokens: TokenRegistry;
  platform: Platform;
  wallets: WalletsApi;
}

/** The issuer as a signer: its custody row and its account state on the validated ledger. */
interface Issuer {
  token: TokenRow;
  wallet: WalletRow;
  state: IssuerState;
}

/** The holder's side of a line read from the issuer's account_lines. */
function toDashboardLine(line: AccountLinesTrustline, label: string | null = null): DashboardTrustLine {
  const held = new Decimal(line.balance).negated();
  return {
    account_address: line.account,
    currency: line.currency,
    limit_amount: line.limit_peer,
    balance: held.isZero() ? '0' : held.toFixed(),
    authorized: line.authorized === true,
    freeze: line.freeze === true,
    account_label: label,
  };
}

export class DashboardService {
  private readonly issuers: ListingService;

  constructor(private readonly deps: DashboardDeps) {
    this.issuers = new ListingService({ tokens: deps.tokens, platform: deps.platform });
  }

  private submissions(): SubmissionService {
    const s = this.deps.platform.submissions;
    if (!s) throw ledgerUnavailable();
    return s;
  }

  hasDeployed(userId: number): Promise<boolean> {
    return this.deps.tokens.hasDeployed(userId);
  }

  async userTokens(userId: number) {
    return (await this.deps.tokens.deployedBy(userId)).map(toTokenView);
  }

  /** The caller's deployed token, or the same 404 whether it is someone else's or nobody's. */
  async owned(userId: number, tokenId: number): Promise<TokenRow> {
    const row = await this.deps.tokens.byId(tokenId);
    if (!row || row.deployerUserId !== userId) throw notFound(M.tokenNotFound);
    return row;
  }

  async issuerWallet(userId: number, tokenId: number): Promise<IssuerWalletResponse> {
    const token = await this.owned(userId, tokenId);
    const state = await this.issuers.issuerState(token.issuerAddress);
    return {
      issuerAddress: token.issuerAddress,
      requireAuthEnabled: state.requireAuth,
      isBlackholed: state.blackholed,
    };
  }

  /**
   * A self-funded deploy's dev allocation and first buy still waiting in Checks for the creator's
   * wallet (docs/self-custody.md "Claiming later, from the dashboard"), read from the validated
   * ledger: the dashboard's Claim, for a creator who closed the deploy's progress modal unclaimed.
   */
  async deployClaim(userId: number, tokenId: number): Promise<DeployClaimView> {
    const token = await this.owned(userId, tokenId);
    if (token.source !== 'deploy' || !token.deployJobId) return { claim: null };
    const client = this.deps.platform.connection?.client;
    if (!client) throw ledgerUnavailable();
    return { claim: await waitingClaim(this.deps.platform.database.db, client, token.deployJobId) };
  }

  private async lines(token: TokenRow, holder?: string): Promise<AccountLinesTrustline[]> {
    const all = await this.deps.wallets.lines(token.issuerAddress, holder);
    return all.filter((l) => sameCurrency(l.currency, token.currency));
  }

  /**
   * Lines that are not a holder's: the token's AMM pools (against XRP and RLUSD), bonding curves
   * and Ledgerpad's own accounts, with the label the table shows instead of Freeze/Authorize.
   */
  private async systemAccounts(token: TokenRow): Promise<Map<string, string>> {
    const labels = await platformHolders(this.deps.platform.database.db);
    const client = this.deps.platform.connection?.client;
    if (!client) return labels;
    const rlusd = await rlusdIssuer(this.deps.platform.database.db, this.deps.platform.config.XRPL_NETWORK);
    const quotes = [{ currency: 'XRP' }, ...(rlusd ? [{ currency: RLUSD_CURRENCY_HEX, issuer: rlusd }] : [])];
    for (const quote of quotes) {
      const amm = await client
        .request({
          command: 'amm_info',
          asset: quote as { currency: 'XRP' },
          asset2: { currency: token.currency, issuer: token.issuerAddress },
          ledger_index: 'validated',
        })
        .then((r) => (r.result.amm as { account?: string }).account)
        .catch(() => undefined);
      if (amm) labels.set(amm, 'AMM pool');
    }
    return labels;
  }

  private async lineView(token: TokenRow): Promise<TrustLinesResponse> {
    const [lines, labels] = await Promise.all([this.lines(token), this.systemAccounts(token)]);
    return {
      issuerAddress: token.issuerAddress,
      currency: token.currency,
      trustLines: lines.map((l) => toDashboardLine(l, labels.get(l.account) ?? null)),
    };
  }

  /** Refuses to freeze or authorize an AMM pool's, a curve's or a platform account's line. */
  private async assertHolder(token: TokenRow, account: string): Promise<void> {
    const label = (await this.systemAccounts(token)).get(account);
    if (label) throw badRequest(M.systemAccount(label));
  }

  async trustLines(userId: number, tokenId: number): Promise<TrustLinesResponse> {
    return this.lineView(await this.owned(userId, tokenId));
  }

  /**
   * The issuer ready to sign: its key is in custody (the deploy's issuer wallet of this deployer)
   * and the ledger says it can still sign with it. A blackholed issuer is refused before anything
   * is signed, whatever the row says (and the row learns it).
   */
  private async signer(userId: number, tokenId: number): Promise<Issuer> {
    const token = await this.owned(userId, tokenId);
    const [wallet] = token.issuerWalletId
      ? await this.deps.platform.database.db
          .select()
          .from(walletsTable)
          .where(
            and(
              eq(walletsTable.id, token.issuerWalletId),
              eq(walletsTable.userId, userId),
              eq(walletsTable.role, STAGED_ROLES.issuer),
              eq(walletsTable.address, token.issuerAddress),
            ),
          )
      : [];
    if (!wallet) throw badRequest(M.issuerNotHeld);
    const state = await this.issuers.issuerState(token.issuerAddress);
    if (state.blackholed) {
      if (!token.isBlackholed) await this.deps.tokens.update(token.id, { isBlackholed: true });
      throw badRequest(M.issuerBlackholed);
    }
    return { token, wallet, state };
  }

  private funds(): Funds {
    const f = this.deps.platform.funds;
    if (!f) throw ledgerUnavailable();
    return f;
  }

  /**
   * One issuer transaction, checked first (the issuer pays its network fee from above its
   * reserve); anything but a validated tesSUCCESS is a 400 saying what the ledger's result means.
   * One click, one intent: the request's Idempotency-Key names it, so a retried click is the same
   * transaction; without a key each request is a new click.
   */
  private async submit(
    issuer: Issuer,
    userId: number,
    what: string,
    tx: TxRequest,
    fallback: string,
    key: string | undefined,
  ) {
    const submissions = this.submissions();
    const funds = this.funds();
    const req = {
      intentKey: `dashboard:${what}:${issuer.token.id}:${key ?? randomUUID()}`,
      account: issuer.token.issuerAddress,
      tx,
      purpose: `dashboard-${what}`,
      userId,
      walletId: issuer.wallet.id,
    };
    const outcome =
      (await submissions.existing(req.intentKey)) ??
      (await submissions.follow(
        req,
        await funds.withAccount(req.account, async () => {
          await funds.requireXrp(req.account, { transactions: 1 });
          return submissions.prepare(req);
        }),
      ));
    return this.succeeded(outcome, fallback);
  }

  private succeeded(outcome: SubmissionOutcome, fallback: string): string {
    if (outcome.status !== 'success') {
      const result = outcome.result === 'tefMASTER_DISABLED' ? M.issuerKeyDisabled : undefined;
      throw badRequest(result ?? M.ledgerRefused(fallback, outcome.result), {
        result: outcome.result,
      });
    }
    return outcome.hash;
  }

  /**
   * The hash of the transaction a request with this Idempotency-Key already made (its first
   * attempt cut by a crash or a lost answer): the retry answers with it, before any check that
   * would now see the change made ("already frozen", "already blackholed") and answer without it.
   */
  private async recorded(
    tokenId: number,
    what: string,
    key: string | undefined,
    fallback: string,
  ): Promise<string | undefined> {
    if (!key) return undefined;
    const outcome = await this.submissions().existing(`dashboard:${what}:${tokenId}:${key}`);
    return outcome ? this.succeeded(outcome, fallback) : undefined;
  }

  private async holderLine(issuer: Issuer, holder: string): Promise<AccountLinesTrustline> {
    const [line] = await this.lines(issuer.token, holder);
    if (line) return line;
    // No line: say so — or, when the address is not even an account, that (issue 34).
    if (!(await this.deps.wallets.accountState(holder)).activated)
      throw accountMissing('holder', holder, 'accountAddress');
    throw badRequest(M.noLine);
  }

  /** The issuer's TrustSet toward a holder: only the flags change (its own limit stays as it is, normally 0). */
  private trustSet(issuer: Issuer, line: AccountLinesTrustline, flags: number): TxRequest {
    return {
      TransactionType: 'TrustSet',
      LimitAmount: { currency: issuer.token.currency, issuer: line.account, value: line.limit },
      Flags: flags,
    };
  }

  async freeze(
    userId: number,
    tokenId: number,
    body: FreezeTrustLineRequest,
    key?: string,
  ): Promise<DashboardWriteResponse> {
    await this.owned(userId, tokenId);
    const earlier = await this.recorded(tokenId, 'freeze', key, M.freezeFailed);
    if (earlier) return { success: true, hash: earlier };
    const issuer = await this.signer(userId, tokenId);
    if (body.currency && !sameCurrency(body.currency, issuer.token.currency)) {
      throw badRequest(M.wrongCurrency);
    }
    await this.assertHolder(issuer.token, body.accountAddress);
    const line = await this.holderLine(issuer, body.accountAddress);
    if ((line.freeze === true) === body.freeze) return { success: true };
    const flags = body.freeze ? TrustSetFlags.tfSetFreeze : TrustSetFlags.tfClearFreeze;
    const hash = await this.submit(
      issuer,
      userId,
      'freeze',
      this.trustSet(issuer, line, flags),
      M.freezeFailed,
      key,
    );
    return { success: true, hash };
  }

  async authorize(
    userId: number,
    tokenId: number,
    body: AuthorizeTrustLineRequest,
    key?: string,
  ): Promise<DashboardWriteResponse> {
    await this.owned(userId, tokenId);
    const earlier = await this.recorded(tokenId, 'authorize', key, M.authorizeFailed);
    if (earlier) return { success: true, hash: earlier };
    const issuer = await this.signer(userId, tokenId);
    if (!body.authorized) throw badRequest(M.cannotUnauthorize);
    if (!issuer.state.requireAuth) throw badRequest(M.requireAuthOff);
    await this.assertHolder(issuer.token, body.accountAddress);
    const line = await this.holderLine(issuer, body.accountAddress);
    if (line.authorized === true) return { success: true };
    const tx = this.trustSet(issuer, line, TrustSetFlags.tfSetfAuth);
    return {
      success: true,
      hash: await this.submit(issuer, userId, 'authorize', tx, M.authorizeFailed, key),
    };
  }

  /**
   * Irreversible: answered from the ledger. Already off is success (a second click, a retry after
   * a lost answer); a failure whose ledger state is nonetheless off (a concurrent click did it) is
   * success too — it never reports 'failed' for a change that happened.
   */
  async disableRequireAuth(userId: number, tokenId: number, key?: string): Promise<DashboardWriteResponse> {
    const token = await this.owned(userId, tokenId);
    const earlier = await this.recorded(tokenId, 'disable-require-auth', key, M.disableRequireAuthFailed);
    if (earlier) return { success: true, hash: earlier };
    if (!(await this.issuers.issuerState(token.issuerAddress)).requireAuth) {
      await this.deps.tokens.update(token.id, { requireAuth: false });
      return { success: true };
    }
    const issuer = await this.signer(userId, tokenId);
    let hash: string | undefined;
    try {
      const tx = { TransactionType: 'AccountSet', ClearFlag: AccountSetAsfFlags.asfRequireAuth };
      hash = await this.submit(issuer, userId, 'disable-require-auth', tx, M.disableRequireAuthFailed, key);
    } catch (err) {
      if ((await this.issuers.issuerState(token.issuerAddress)).requireAuth) throw err;
    }
    await this.deps.tokens.update(issuer.token.id, { requireAuth: false });
    return hash ? { success: true, hash } : { success: true };
  }

  /**
   * SetRegularKey to ACCOUNT_ONE (nobody holds its key), then disable the master key. In that
   * order: if the second fails, the master key still signs and the issuer is not lost half-way.
   * Irreversible, so answered from the ledger: an issuer already blackholed is success (nothing
   * signed), and a failure whose issuer is nonetheless blackholed (a concurrent click finished it)
   * is success — never 'failed' for something that happened.
   */
  async blackhole(userId: number, tokenId: number, key?: string): Promise<DashboardWriteResponse> {
    const token = await this.owned(userId, tokenId);
    const blackholed = async () => (await this.issuers.issuerState(token.issuerAddress)).blackholed;
    const earlier = await this.recorded(tokenId, 'blackhole-disable-master', key, M.blackholeFailed);
    if (earlier) return { success: true, hash: earlier };
    if (await blackholed()) {
      await this.deps.tokens.update(token.id, { isBlackholed: true });
      return { success: true };
    }
    const issuer = await this.signer(userId, tokenId);
    let hash: string | undefined;
    try {
      await this.submit(
        issuer,
        userId,
        'blackhole-regular-key',
        { TransactionType: 'SetRegularKey', RegularKey: BLACKHOLE_ADDRESS },
        M.blackholeFailed,
        key,
      );
      hash = await this.submit(
        issuer,
        userId,
        'blackhole-disable-master',
        { TransactionType: 'AccountSet', SetFlag: AccountSetAsfFlags.asfDisableMaster },
        M.blackholeFailed,
        key,
      );
    } catch (err) {
      if (!(await blackholed())) throw err;
    }
    await this.deps.tokens.update(issuer.token.id, { isBlackholed: true });
    return hash ? { success: true, hash } : { success: true };
  }

  /** Re-reads supply, issuer flags and lines from the ledger and writes the first two to the row. */
  async sync(userId: number, tokenId: number, body: SyncTrustLinesRequest): Promise<SyncTrustLinesResponse> {
    const token = await this.owned(userId, tokenId);
    if (body.issuerAddress && body.issuerAddress !== token.issuerAddress) {
      throw badRequest(M.wrongIssuer);
    }
    if (body.currency && !sameCurrency(body.currency, token.currency)) {
      throw badRequest(M.wrongCurrency);
    }
    const [issued, state, lines] = await Promise.all([
      this.issuers.issuedTokens(token.issuerAddress),
      this.issuers.issuerState(token.issuerAddress),
      this.lineView(token),
    ]);
    const supply = issued.find((t) => sameCurrency(t.currency, token.currency))?.value ?? '0';
    const updated = await this.deps.tokens.update(token.id, {
      supply,
      isBlackholed: state.blackholed,
      requireAuth: state.requireAuth,
    });
    return { success: true, token: toTokenView(updated ?? token), ...lines };
  }

  /**
   * The ledger lets only the holder set its own limit, so this works for a holder that is one of
   * the caller's wallets, signed by that wallet through the Wallets page's own code.
   */
  async setLimit(
    userId: number,
    body: DashboardSetLimitRequest,
    key?: string,
  ): Promise<DashboardWriteResponse | IntentRequired> {
    const token = (await this.deps.tokens.deployedBy(userId)).find(
      (t) => t.issuerAddress === body.issuerAddress && sameCurrency(t.currency, body.currency),
    );
    if (!token) throw notFound(M.tokenNotFound);
    const holder = (await this.deps.wallets.list(userId)).find((w) => w.address === body.holderAddress);
    if (!holder) throw badRequest(M.limitHolderOnly);
    const res = await setTrustlineLimit(
      {
        service: this.deps.wallets,
        submissions: this.submissions(),
        funds: this.funds(),
        intents: this.deps.platform.intents,
      },
      userId,
      { walletId: holder.id, issuer: token.issuerAddress, currency: token.currency, limit: body.limitAmount },
      key,
    );
    // A self-custody holder signs its own TrustSet: the intent, answered once signed as the
    // Wallets page's limit change is (docs/self-custody.md).
    if (!('hash' in res)) return res;
    return { success: true, hash: res.hash };
  }
}
