import {
  AMOUNT_DECIMALS,
  Decimal,
  SWAP_MESSAGES,
  WALLET_MESSAGES,
  amountValue,
  currencyToTicker,
  fixedDecimals,
  platformFee,
  platformFeeDrops,
  toLedgerValue,
  xrpToDrops,
  type LedgerAmount,
  type QuoteAsset,
  type TradeSide,
  type limitOrderSchema,
  type swapRequestSchema,
  type WalletKind,
  SELF_CUSTODY_MESSAGES,
  serverSigns,
  DELEGATION_MESSAGES,
  type DelegatedPermission,
} from '@ledgerpad/shared';
import { and, eq, inArray, max } from 'drizzle-orm';
import { getBalanceChanges, type Client, type TransactionMetadata } from 'xrpl';
import { batchedRead } from '../../db/batched';
import type { Db } from '../../db/client';
import { readIssuerFacts } from '../../ledger/account-root';
import type { LedgerReader } from '../../ledger/local-ledger';
import type { Funds } from '../../ledger/funds';
import { ledgerSubmissions } from '../../ledger/schema';
import type { BalanceChanges, SubmissionService } from '../../ledger/submission-service';
import { badRequest, notFound } from '../../lib/errors';
import type { IntentService } from '../../platform/intents';
import type { FeeSettlement } from './fee-paid';
import type { Parsed } from '../../lib/validation';
import type { JobRunner } from '../../platform/jobs';
import { LedgerReadCache } from '../../platform/read-cache';
import type { PlatformSettings } from '../../platform/settings';
import type { TokenRegistry } from '../tokens';
import type { DelegationsApi, WalletsApi } from '../wallets';
import { quoteAssetOf } from './quote-asset';
import { type OrderRecords, type OrderUpdate } from './orders';
import { type CurveAccounts, type TradeRecorder } from './trade-records';
import { tradingTrades } from './schema';
import { marketOffer, marketPayment, tradeMoved, type Asset } from './plan';

export interface TradingDeps {
  db: Db;
  client: Client;
  /**
   * The trade's reads (the trust line, simulate, the pool): `client`, or the embedded ledger in this
   * thread answering in-process, the same handlers without the socket (ledger/local-ledger.ts).
   */
  reader?: LedgerReader;
  submissions: SubmissionService;
  funds: Funds;
  jobs: JobRunner;
  settings: PlatformSettings;
  tokens: TokenRegistry;
  wallets: WalletsApi;
  rlusdIssuer: () => Promise<string | undefined>;
  orders: OrderRecords;
  recorder: TradeRecorder;
  /** Curve launches: a buy that meets the anti-snipe cap is told so. */
  curves?: CurveAccounts;
  /** Intents of self-custody wallets (docs/self-custody.md). */
  intents?: IntentService;
  /** The platform fee wallet's address (a self-custody swap pays its fee to it in its own intent). */
  feeWallet: () => Promise<string | undefined>;
  /**
   * Whether a custodial market trade through an AMM pays its platform fee inside its own
   * all-or-nothing Batch (issue 36, docs/batch-in-the-app.md): the setting and the ledger's Batch
   * amendment. Absent or false: the fee job pays it after the trade.
   */
  feeInBatch?: () => Promise<boolean>;
  /**
   * Where a self-custody swap's fee, paid by its own intent, is recorded with the creator's and the
   * referrer's shares (fee-paid.ts: the one place a fee becomes paid).
   */
  settlement: Pick<FeeSettlement, 'settleIntent' | 'settleOwed'>;
  /**
   * Delegated trading of self-custody wallets (docs/self-custody.md "Delegated trading"): the
   * user's delegate account when the wallet's ledger entry grants it the permission.
   */
  delegations?: DelegationsApi;
  /** Pushes `orderUpdated` to the order owner's sockets. */
  publishOrderUpdate: (u: OrderUpdate) => Promise<void> | void;
  /**
   * The platform's per-ledger read cache (platform/read-cache.ts): a quote's database reads — the
   * user's wallets and fee rate, the token row, its curve account — kept until the next indexed
   * ledger or a local change (a listing, a curve, an admin's fee setting). A swap keeps
   * the fee rate, the market's token row and the curve account the same way (issue 40: a burst of
   * buys reads them once a ledger); its wallet, balances and submissions it reads anew.
   */
  cache?: Pick<LedgerReadCache, 'get'>;
}

export interface Market {
  token: Asset & { kind: 'iou' };
  quote: Asset;
  quoteName: QuoteAsset;
  tokenId: number | null;
}

export interface Simulated {
  result: string;
  spent: Decimal;
  received: Decimal;
  changes?: BalanceChanges;
  /** The simulated transaction's network fee, in drops. */
  feeDrops?: bigint;
  /** The simulation had to open the trust line (a buy without one). */
  opensLine?: boolean;
}

export type WalletRow = Awaited<ReturnType<WalletsApi['list']>>[number];

export type SwapInput = Parsed<typeof swapRequestSchema>;
export type LimitOrderInput = Parsed<typeof limitOrderSchema>;

/**
 * The balance changes of a simulated trade's metadata, by the metadata object: the embedded ledger
 * answering in-process hands out its memoized answer (the same object for the same question on
 * the same open ledger, read-only), so a repeated quote does not derive them again.
 */
const balanceChangesOf = new WeakMap<TransactionMetadata, BalanceChanges>();

export const fixed6 = (d: Decimal) => fixedDecimals(d, AMOUNT_DECIMALS);
export const plain = (d: Decimal) => toLedgerValue(d);

// The trading service's shared ground: the paying wallet and the market, the trade simulated on the
// open ledger, the trust line and funds checks, and who signs (the server, a delegate or the wallet).
// The actions build on it: trust-line.ts, quote.ts, market-order.ts, limit-order.ts; service.ts is the whole.
export abstract class TradingBase {
  protected readonly reader: LedgerReader;
  /**
   * Whether a token's issuer requires authorized trust lines, kept for the validated ledger it was
   * read at (at most a second): every buy of a hot launch asked the ledger for the same issuer's
   * account (issue 40). The ledger refuses to set RequireAuth on an account that owns trust lines,
   * so once a token has holders the answer can only turn to no: a buy refused in that second is
   * refused as it would have been a moment earlier.
   */
  private readonly issuerRequiresAuth = new LedgerReadCache({
    ledger: () => this.deps.submissions.ledgerIndex,
    maxEntries: 1_000,
  });

  constructor(protected readonly deps: TradingDeps) {
    this.reader = deps.reader ?? deps.client;
  }

  /**
   * A database read kept per indexed ledger when the read cache is there (`TradingDeps.cache`): the
   * user's fee rate, the market's token row, the token's curve account. A quote's reads, and since
   * issue 40 a trade's too (a burst of buys read them once per ledger, not once per buy).
   */
  protected kept<T>(key: string, read: () => Promise<T>): Promise<T> {
    return this.deps.cache ? this.deps.cache.get(`trading:${key}`, read) : read();
  }

  /** The user's trading fee in percent (`TradeRecorder.feePercent`), kept per ledger. */
  protected feeRate(userId: number): Promise<string> {
    return this.kept(`fee:${userId}`, () => this.deps.recorder.feePercent(userId));
  }

  /** The token's active bonding-curve account (undefined without one), kept per ledger. */
  protected curveOf(m: Market): Promise<string | undefined> {
    return this.kept(`curve:${m.token.issuer}:${m.token.currency}`, async () =>
      this.deps.curves?.activeCurveAccount(m.token.issuer, m.token.currency),
    );
  }

  /** A swap's or a limit order's paying wallet (either of the spec's two field names) and its market. */
  protected async walletAndMarket(userId: number, r: SwapInput | LimitOrderInput) {
    const [wallet, m] = await Promise.all([
      this.wallet(userId, r.walletAddress ?? r.wallet),
      this.kept(`market:${r.issuer}:${r.token}:${r.baseAsset ?? ''}`, () =>
        this.market(r.issuer, r.token, r.baseAsset),
      ),
    ]);
    return { wallet, m };
  }

  protected async wallet(userId: number, address: string | undefined) {
    const all = await this.deps.wallets.list(userId);
    const row = address ? all.find((w) => w.address === address) : all[0];
    if (!row) throw notFound(address ? WALLET_MESSAGES.notFound : SWAP_MESSAGES.selectWalletAndToken);
    return row;
  }

  /** `currency` is the ledger code the shared token-code schema already produced. */
  protected async market(
    issuer: string,
    currency: string,
    baseAsset: QuoteAsset | undefined,
  ): Promise<Market> {
    const {
      listed,
      name: quoteName,
      asset: quote,
    } = await quoteAssetOf({ ...this.deps, client: this.reader }, issuer, currency, baseAsset);
    if (quote.kind === 'iou' && quote.currency === currency && quote.issuer === issuer)
      throw badRequest(SWAP_MESSAGES.selectWalletAndToken);
    return { token: { kind: 'iou', currency, issuer }, quote, quoteName, tokenId: listed?.id ?? null };
  }

  protected tokenName(m: Market): string {
    return currencyToTicker(m.token.currency);
  }

  /**
   * The trade simulated from `account` against the open ledger: what it would move. It is the
   * swap's own Payment when the wallet can receive the token (a SELL, or a BUY with its trust
   * line); a BUY without the line (the swap adds it first) is simulated as an offer at any price,
   * which crosses the same book and pools and opens the line itself.
   */
  protected async simulate(
    account: string,
    side: TradeSide,
    m: Market,
    amount: string,
    minReceive?: Decimal,
  ): Promise<Simulated> {
    const [pay, get] = side === 'BUY' ? [m.quote, m.token] : [m.token, m.quote];
    const canReceive = await this.canHold(account, get);
    const tx = canReceive
      ? marketPayment(account, pay, amount, get, minReceive)
      : marketOffer(pay, amount, get, minReceive);
    const res = (await this.reader.request({
      command: 'simulate',
      tx_json: { ...tx, Account: account },
    } as never)) as {
      result: { engine_result: string; meta?: TransactionMetadata; tx_json: { Fee: string } };
    };
    const { engine_result: result, meta, tx_json: sent } = res.result;
    if (!meta || !result.startsWith('tes'))
      return { result, spent: new Decimal(0), received: new Decimal(0) };
    let changes = balanceChangesOf.get(meta);
    if (!changes) balanceChangesOf.set(meta, (changes = getBalanceChanges(meta)));
    const moved = tradeMoved(changes, account, pay, get, sent.Fee);
    return { result, ...moved, changes, feeDrops: BigInt(sent.Fee), opensLine: !canReceive };
  }

  protected async hasLine(account: string, m: Market): Promise<boolean> {
    return this.canHold(account, m.token);
  }

  /** XRP, or an issued asset the account has a trust line for. */
  protected async canHold(account: string, asset: Asset): Promise<boolean> {
    if (asset.kind === 'xrp') return true;
    const lines = await this.deps.wallets.lines(account, asset.issuer, this.reader);
    return lines.some((l) => l.currency === asset.currency);
  }

  /**
   * The trust line a market order needs before it can receive what it buys: the token on a BUY,
   * the quote asset (RLUSD) on a SELL of an RLUSD-quoted token; undefined when it has it already.
   */
  protected async missingLine(
    account: string,
    m: Market,
    type: TradeSide,
  ): Promise<(Asset & { kind: 'iou' }) | undefined> {
    const get = type === 'BUY' ? m.token : m.quote;
    if (get.kind === 'xrp' || (await this.canHold(account, get))) return undefined;
    return get;
  }

  protected async spotPrice(m: Market): Promise<Decimal | null> {
    try {
      const r = await this.reader.request({
        command: 'amm_info',
        asset:
          m.quote.kind === 'xrp'
            ? { currency: 'XRP' }
            : { currency: m.quote.currency, issuer: m.quote.issuer },
        asset2: { currency: m.token.currency, issuer: m.token.issuer },
        ledger_index: 'current',
      });
      const quoteSide = amountValue(r.result.amm.amount as LedgerAmount);
      const tokenSide = amountValue(r.result.amm.amount2 as LedgerAmount);
      return tokenSide.gt(0) ? quoteSide.div(tokenSide) : null;
    } catch {
      return null;
    }
  }

  /** 'Insufficient Liquidity', or the launch protection's cap when that is what a buy met. */
  protected async noLiquidity(m: Market, type: 'BUY' | 'SELL', details?: Record<string, unknown>) {
    const cap =
      type === 'BUY'
        ? await this.deps.curves?.launchProtection?.(m.token.issuer, m.token.currency)
        : undefined;
    return badRequest(cap ?? SWAP_MESSAGES.insufficientLiquidity, details);
  }

  protected get intents(): IntentService {
    if (!this.deps.intents) throw badRequest(SELF_CUSTODY_MESSAGES.notSupported);
    return this.deps.intents;
  }

  /** The XRP a market trade of `order` takes besides network fees (and the platform fee on a BUY). */
  protected async xrpSpend(userId: number, m: Market, type: TradeSide, amount: string) {
    if (type === 'SELL' || m.quote.kind !== 'xrp') return { amount: 0n, platformFee: 0n };
    const drops = xrpToDrops(amount);
    return {
      amount: drops,
      platformFee: platformFeeDrops(drops, await this.feeRate(userId)),
    };
  }

  /** A BUY paid in RLUSD: the wallet holds the amount and the fee in RLUSD (nothing to check for XRP). */
  protected async requireQuoteToken(
    userId: number,
    address: string,
    m: Market,
    amount: string,
  ): Promise<void> {
    if (m.quote.kind !== 'iou') return;
    const fee = platformFee(amount, await this.feeRate(userId), m.quote.kind);
    await this.deps.funds.requireToken(address, m.quote, new Decimal(amount).plus(fee), m.quoteName);
  }

  /**
   * Whether a custodial market trade in `m` and its platform fee go in one all-or-nothing Batch
   * (docs/batch-in-the-app.md): the setting and the ledger's Batch amendment (`feeInBatch`), a pool in
   * the pair (an AMM takes any input, so the trade spends what it was told and the fee signed with
   * it is the fee on what it moves), and no bonding curve on the token (its fee is inside its
   * prices; it stays on the fee job's path, as book-only markets and limit orders do). `known`: the
   * token's curve account and whether the pair has a pool, when the caller read them.
   */
  protected async inBatch(m: Market, known?: { curve: string | undefined; pool: boolean }): Promise<boolean> {
    if (!(await this.deps.feeInBatch?.())) return false;
    const curve = known ? known.curve : await this.curveOf(m);
    if (curve) return false;
    return known ? known.pool : (await this.spotPrice(m)) !== null;
  }

  /** Signed blobs by hash: the swaps of a burst that validated together read theirs in one statement. */
  protected readonly signedBlob = batchedRead(async (hashes: string[]) => {
    const rows = await this.deps.db
      .select({ hash: ledgerSubmissions.hash, blob: ledgerSubmissions.txBlob })
      .from(ledgerSubmissions)
      .where(inArray(ledgerSubmissions.hash, hashes));
    return new Map(rows.map((r) => [r.hash, r.blob]));
  });

  /** RequireAuth tokens need the wallet's line authorized by the issuer before a BUY. */
  protected async requireAuthorized(address: string, m: Market): Promise<void> {
    const { issuer } = m.token;
    const requireAuth = await this.issuerRequiresAuth.get(
      issuer,
      async () => (await readIssuerFacts(this.deps.client, issuer, 'current')).requireAuth,
    );
    if (!requireAuth) return;
    const lines = await this.deps.wallets.lines(address, m.token.issuer);
    const line = lines.find((l) => l.currency === m.token.currency);
    if (!(line as { peer_authorized?: boolean } | undefined)?.peer_authorized)
      throw badRequest(SWAP_MESSAGES.requireAuth);
  }

  /**
   * Who signs a trading transaction of `wallet`: undefined for a custodial wallet (the server, with
   * its key); the delegate's address for a self-custody wallet whose ledger entry grants it the
   * permission (docs/self-custody.md "Delegated trading") — refused while the wallet owes platform
   * fees of earlier delegated trades, except a cancel —; null when the wallet must sign itself.
   */
  protected async delegateFor(
    userId: number,
    wallet: WalletRow,
    permission: DelegatedPermission,
  ): Promise<string | undefined | null> {
    if (serverSigns(wallet.kind as WalletKind)) return undefined;
    const delegate = await this.deps.delegations?.activeDelegate(userId, wallet, permission);
    // Without delegation an action is an intent the wallet signs.
    if (!delegate) {
      if (!this.deps.intents) throw badRequest(SELF_CUSTODY_MESSAGES.notSupported);
      return null;
    }
    if (permission !== 'OfferCancel') {
      const owed = await this.owedFees(wallet.address);
      const parts = [
        ...(new Decimal(owed.xrp).gt(0) ? [`${owed.xrp} XRP`] : []),
        ...(new Decimal(owed.rlusd).gt(0) ? [`${owed.rlusd} RLUSD`] : []),
      ];
      if (parts.length) throw badRequest(DELEGATION_MESSAGES.feesOwed(parts.join(' and ')));
    }
    return delegate;
  }

  /**
   * A self-custody wallet signs its own transactions too (intents, or elsewhere): before the
   * delegate signs one with the wallet's sequence, ours moves past the ledger's open sequence and
   * every transaction of the wallet we are still following.
   */
  protected async catchUpSequence(address: string): Promise<void> {
    const info = await this.deps.client.request({
      command: 'account_info',
      account: address,
      ledger_index: 'current',
    });
    const [open] = await this.deps.db
      .select({ top: max(ledgerSubmissions.sequence) })
      .from(ledgerSubmissions)
      .where(
        and(
          eq(ledgerSubmissions.account, address),
          inArray(ledgerSubmissions.status, ['pending', 'submitted']),
        ),
      );
    const top = open?.top ?? null;
    const next = Math.max(info.result.account_data.Sequence, top === null ? 0 : Number(top) + 1);
    await this.deps.submissions.sawSequence(address, next);
  }

  /**
   * Platform fees a self-custody wallet's delegated or signed limit trades owe (fee status 'owed':
   * nothing can sign their payment but the wallet), by quote currency.
   */
  async owedFees(address: string): Promise<{ xrp: string; rlusd: string }> {
    const rows = await this.deps.db
      .select({ quote: tradingTrades.quote, fee: tradingTrades.fee, id: tradingTrades.id })
      .from(tradingTrades)
      .where(and(eq(tradingTrades.walletAddress, address), eq(tradingTrades.feeStatus, 'owed')));
    const sum = (q: string) =>
      plain(rows.filter((r) => r.quote === q).reduce((t, r) => t.plus(r.fee), new Decimal(0)));
    return { xrp: sum('XRP'), rlusd: sum('RLUSD') };
  }
}
