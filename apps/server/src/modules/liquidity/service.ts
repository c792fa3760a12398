import { randomUUID } from 'node:crypto';
import {
  LIQUIDITY_MESSAGES,
  singleWithdrawLimit,
  RLUSD_CURRENCY_HEX,
  SELF_CUSTODY_MESSAGES,
  WALLET_MESSAGES,
  type addLiquiditySchema,
  type ammAuctionSchema,
  type ammBidSchema,
  type ammVoteSchema,
  isHexCurrency,
  isTokenSide,
  type lpBalanceSchema,
  type lpPositionSchema,
  type lpPriceSchema,
  type removeLiquiditySchema,
  sameCurrency,
  tickerToCurrency,
  type AddLiquidityResult,
  type AmmAuctionView,
  type AmmBidResult,
  type AmmVoteResult,
  type LpBalanceResult,
  type LpPositionEvent,
  type LpPositionResult,
  type LpPriceResult,
  type PoolAssetRef,
  type QuoteAsset,
  type RemoveLiquidityResult,
  Decimal,
  amountValue,
  currencyToTicker,
  decimalToDrops,
  dropsToDecimal,
  insufficientTokenMessage,
  ledgerResultMessage,
  isLpCurrency,
  lpName,
  serverSigns,
  type IntentRequired,
  type WalletKind,
} from '@ledgerpad/shared';
import {
  AMMDepositFlags,
  AMMWithdrawFlags,
  getBalanceChanges,
  RippledError,
  rippleTimeToUnixTime,
  type Client,
  type TransactionMetadata,
} from 'xrpl';
import { ledgerFailure } from '../../ledger/errors';
import type { Funds } from '../../ledger/funds';
import type {
  BalanceChanges,
  SubmissionOutcome,
  SubmissionService,
  SubmitRequest,
} from '../../ledger/submission-service';
import { badRequest, notFound } from '../../lib/errors';
import type { WalletRow } from '../../platform/custody';
import { requireNeed, type FundsNeed, type IntentFinisher, type IntentService } from '../../platform/intents';
import type { Parsed } from '../../lib/validation';
import type { TokenRegistry } from '../tokens';
import { ledgerAmount, quoteAssetOf, type Asset, type LedgerAmount } from '../trading';
import type { WalletsApi } from '../wallets';
import {
  auctionPrice,
  doubleWithdraw,
  lpPerUnit,
  payout,
  singleDepositLpOut,
  singleWithdrawOut,
  twoAssetDeposit,
  type PoolState,
} from './math';
import { foldPosition, positionFigures, type PositionEventInput } from './position';

// AMM liquidity from custodial wallets: AMMDeposit, AMMWithdraw and AMMVote through the submission
// service, and the pool's LP numbers read from `amm_info` (the open ledger, where the next
// transaction applies). Refusals that need no ledger happen before anything is signed.

export interface LiquidityDeps {
  client: Client;
  submissions: SubmissionService;
  funds: Funds;
  tokens: TokenRegistry;
  wallets: WalletsApi;
  rlusdIssuer: () => Promise<string | undefined>;
  /** Self-custody wallets' signing intents (docs/self-custody.md). */
  intents?: IntentService;
}

/** The market an AMM action of a self-custody wallet is on, as its intent's context keeps it. */
interface AmmIntentContext {
  market: { issuer: string; token: string; baseAsset?: QuoteAsset };
  need: FundsNeed;
}

/** The AMM actions a self-custody wallet signs, by submission purpose. */
export const AMM_INTENT_PURPOSES = ['add-liquidity', 'remove-liquidity', 'amm-vote'] as const;
type AmmPurpose = (typeof AMM_INTENT_PURPOSES)[number];

interface Market {
  token: Asset & { kind: 'iou' };
  base: Asset;
  baseName: QuoteAsset;
}

interface AuctionSlotJson {
  account: string;
  discounted_fee?: number;
  expiration: string;
  price: { value: string };
  time_interval: number;
}

interface Pool extends PoolState {
  account: string;
  lpCurrency: string;
  auctionSlot?: AuctionSlotJson;
}

/** rippled's last (tailing) 72-minute interval of a slot: its owner can be outbid at the minimum. */
const TAILING_INTERVAL = 19;

type AccountTxEntry = {
  hash?: string;
  ledger_index?: number;
  close_time_iso?: string;
  tx_json?: Record<string, unknown> & { TransactionType: string; Account: string; Fee?: string };
  tx?: Record<string, unknown> & {
    TransactionType: string;
    Account: string;
    Fee?: string;
    hash?: string;
    ledger_index?: number;
    date?: number;
  };
  meta?: TransactionMetadata | string;
};

const issue = (a: Asset) =>
  a.kind === 'xrp' ? { currency: 'XRP' } : { currency: a.currency, issuer: a.issuer };
const plain = (d: Decimal) => d.toSignificantDigits(15, Decimal.ROUND_DOWN).toFixed();

export class LiquidityService {
  constructor(private readonly deps: LiquidityDeps) {}

  /** One of the caller's own wallets; anyone else's answers as missing. */
  private async wallet(userId: number, address: string) {
    const row = (await this.deps.wallets.list(userId)).find((w) => w.address === address);
    if (!row) throw notFound(WALLET_MESSAGES.notFound);
    return row;
  }

  private async market(issuer: string, token: string, baseAsset?: QuoteAsset): Promise<Market> {
    let currency: string;
    try {
      currency = isHexCurrency(token) ? token.toUpperCase() : tickerToCurrency(token);
    } catch {
      throw badRequest(LIQUIDITY_MESSAGES.selectWalletAndToken);
    }
    const { name: baseName, asset: base } = await quoteAssetOf(this.deps, issuer, currency, baseAsset);
    return { token: { kind: 'iou', currency, issuer }, base, baseName };
  }

  /** The pool now (open ledger, or at a closed ledger), or undefined when there is none. */
  private async poolOrNone(m: Market, ledger: number | 'current' = 'current'): Promise<Pool | undefined> {
    try {
      const r = await this.deps.client.request({
        command: 'amm_info',
        asset: issue(m.base) as never,
        asset2: issue(m.token) as never,
        ledger_index: ledger,
      });
      const amm = r.result.amm;
      // Sides matched by asset, not by position.
      const firstIsBase =
        m.base.kind === 'xrp'
          ? typeof amm.amount === 'string'
          : typeof amm.amount !== 'string' && amm.amount.currency === m.base.currency;
      const [b, t] = firstIsBase ? [amm.amount, amm.amount2] : [amm.amount2, amm.amount];
      return {
        account: amm.account,
        lpCurrency: amm.lp_token.currency,
        base: amountValue(b),
        token: amountValue(t),
        lpTotal: new Decimal(amm.lp_token.value),
        tradingFee: Number(amm.trading_fee ?? 0),
        auctionSlot: (amm as { auction_slot?: AuctionSlotJson }).auction_slot,
      };
    } catch (err) {
      if (err instanceof RippledError) return undefined;
      throw err;
    }
  }

  private async pool(m: Market): Promise<Pool> {
    const p = await this.poolOrNone(m);
    if (!p) throw badRequest(LIQUIDITY_MESSAGES.noPool);
    return p;
  }

  private async lpHeld(address: string, pool: Pool): Promise<Decimal> {
    const lines = await this.deps.wallets.lines(address, pool.account);
    const line = lines.find((l) => l.currency === pool.lpCurrency);
    return new Decimal(line?.balance ?? 0);
  }

  /** The pool side a request's `selectedAsset` names. */
  private side(
    m: Market,
    body: { issuer: string; token: string },
    selected: PoolAssetRef | null | undefined,
  ) {
    if (isTokenSide(selected, body)) return m.token;
    if (!selected) throw badRequest(LIQUIDITY_MESSAGES.chooseAsset);
    const isBase =
      m.base.kind === 'xrp'
        ? selected.currency === 'XRP'
        : (!selected.issuer || selected.issuer === m.base.issuer) &&
          (selected.currency === 'RLUSD' || sameCurrency(selected.currency, m.base.currency));
    if (!isBase) throw badRequest(LIQUIDITY_MESSAGES.chooseAsset);
    return m.base;
  }

  /** What a validated AMM transaction moved: the pool's sides (the AMM account's changes) and the LP tokens. */
  /**
   * What one AMM transaction moved, from its balance changes. `pool` undefined: the pool is gone (a
   * withdrawal of its last LP tokens deletes it; a retry answers from that withdrawal): its account
   * is the one whose token balance changed, its LP token the `03…` currency the wallet's changed.
   */
  private moved(
    changes: BalanceChanges,
    pool: Pick<Pool, 'account' | 'lpCurrency'> | undefined,
    m: Market,
    wallet: string,
  ) {
    const of = (account: string, match: (b: { currency: string; issuer?: string }) => boolean) =>
      (changes.find((c) => c.account === account)?.balances ?? [])
        .filter(match)
        .reduce((s, b) => s.plus(b.value), new Decimal(0));
    const is = (a: Asset) => (b: { currency: string; issuer?: string }) =>
      a.kind === 'xrp' ? b.currency === 'XRP' : b.currency === a.currency && b.issuer === a.issuer;
    pool ??= {
      account:
        changes.find(
          (c) => c.account !== wallet && c.account !== m.token.issuer && c.balances.some(is(m.token)),
        )?.account ?? '',
      lpCurrency:
        changes.find((c) => c.account === wallet)?.balances.find((b) => isLpCurrency(b.currency))?.currency ??
        '',
    };
    return {
      base: of(pool.account, is(m.base)),
      token: of(pool.account, is(m.token)),
      lp: of(wallet, (b) => b.currency === pool.lpCurrency),
    };
  }

  private fail(prefix: string, outcome: SubmissionOutcome): never {
    throw ledgerFailure(outcome, `${prefix}: ${ledgerResultMessage(outcome.result)}`);
  }

  /**
   * Checks, signs under the wallet's funds lease (checked again there), and follows one AMM
   * transaction; a retried request (same intent) answers from the first one's transaction.
   */
  private async checked(req: SubmitRequest, check: () => Promise<unknown>): Promise<SubmissionOutcome> {
    const { submissions, funds } = this.deps;
    const done = await submissions.existing(req.intentKey);
    if (done) return done;
    await check();
    const row = await funds.withAccount(req.account, async () => {
      await check();
      return submissions.prepare(req);
    });
    return submissions.follow(req, row);
  }

  /**
   * One AMM transaction of `wallet`: for a custodial wallet checked, signed and followed here; for
   * a self-custody wallet the same checks, then the exact transaction as an intent its browser or
   * wallet app signs (docs/self-custody.md) — `need` checked again before the blob is sent, and the
   * finisher of `req.purpose` answering what `answer` answers here.
   */
  private async run<T>(
    wallet: WalletRow,
    req: SubmitRequest & { purpose: AmmPurpose },
    need: FundsNeed,
    market: AmmIntentContext['market'],
    answer: (outcome: SubmissionOutcome) => Promise<T>,
  ): Promise<T | IntentRequired> {
    if (serverSigns(wallet.kind as WalletKind))
      return answer(await this.checked(req, () => requireNeed(this.deps.funds, wallet.address, need)));
    const intents = this.deps.intents;
    if (!intents) throw badRequest(SELF_CUSTODY_MESSAGES.notSupported);
    const known = await intents.known(req.intentKey);
    if (known) return { status: 'sign', intent: known };
    await requireNeed(this.deps.funds, wallet.address, need);
    const context: AmmIntentContext = { market, need };
    const intent = await intents.prepare({
      userId: req.userId!,
      wallet,
      purpose: req.purpose,
      intentKey: req.intentKey,
      txs: [{ tx: req.tx, purpose: req.purpose }],
      context: context as unknown as Record<string, unknown>,
    });
    return { status: 'sign', intent };
  }

  /** The finisher of a self-custody wallet's AMM action (registered by the module for each purpose). */
  finisher(purpose: AmmPurpose): IntentFinisher {
    const ctxOf = (intent: { context: unknown }) => intent.context as AmmIntentContext;
    return {
      recheck: (intent) => requireNeed(this.deps.funds, intent.account, ctxOf(intent).need),
      finish: async (intent, [outcome]) => {
        const { issuer, token, baseAsset } = ctxOf(intent).market;
        const m = await this.market(issuer, token, baseAsset);
        if (purpose === 'add-liquidity') return this.added(outcome!, m, intent.account);
        if (purpose === 'remove-liquidity')
          return this.removed(outcome!, await this.poolOrNone(m), m, intent.account);
        return this.voted(outcome!, m, intent.account);
      },
    };
  }

  /** The name people read for one side of the pool. */
  private assetName(m: Market, a: Asset): string {
    return a.kind === 'xrp' ? 'XRP' : a === m.base ? m.baseName : currencyToTicker(a.currency);
  }

  /** Does the wallet have a trust line for `asset` (XRP needs none)? */
  private async hasLine(address: string, asset: Asset): Promise<boolean> {
    if (asset.kind === 'xrp') return true;
    return (await this.deps.wallets.lines(address, asset.issuer)).some((l) => l.currency === asset.currency);
  }

  /**
   * POST /api/add-liquidity. Both assets: tfTwoAsset with both amounts as maxima (the ledger takes
   * them in the pool's ratio, the smaller side limiting). One asset: tfSingleAsset, the pool's fee
   * applying to the half that is in effect swapped.
   */
  async add(
    userId: number,
    b: Parsed<typeof addLiquiditySchema>,
    idempotencyKey?: string,
  ): Promise<AddLiquidityResult | IntentRequired> {
    const wallet = await this.wallet(userId, b.wallet);
    const m = await this.market(b.issuer, b.token, b.baseAsset);
    const pool = await this.pool(m);
    const tx =
      b.mode === 'double-asset'
        ? {
            Amount: ledgerAmount(m.base, b.amountXrp),
            Amount2: ledgerAmount(m.token, b.amountToken),
            Flags: AMMDepositFlags.tfTwoAsset,
          }
        : (() => {
            const side = this.side(m, b, b.selectedAsset);
            return {
              Amount: ledgerAmount(side, side === m.token ? b.amountToken : b.amountXrp),
              Flags: AMMDepositFlags.tfSingleAsset,
            };
          })();
    // The deposit's assets from the wallet's balances; a first deposit opens the LP token line
    // (an owner reserve); the network fee.
    const single = b.mode === 'double-asset' ? undefined : this.side(m, b, b.selectedAsset);
    const deposits: Array<[Asset, string]> = single
      ? [[single, single === m.token ? b.amountToken : b.amountXrp]]
      : [
          [m.base, b.amountXrp],
          [m.token, b.amountToken],
        ];
    const lpLine =
      (await this.lpHeld(wallet.address, pool)).isZero() && !(await this.hasLpLine(wallet.address, pool));
    const need: FundsNeed = {
      transactions: 1,
      newObjects: lpLine ? 1 : 0,
      tokens: [],
    };
    let drops = 0n;
    for (const [asset, value] of deposits) {
      if (asset.kind === 'xrp') drops += decimalToDrops(value);
      else need.tokens!.push({ ...asset, value, name: this.assetName(m, asset) });
    }
    if (drops > 0n) need.xrpDrops = drops.toString();
    return this.run(
      wallet,
      {
        intentKey: `add-liquidity:${userId}:${idempotencyKey ?? randomUUID()}`,
        account: wallet.address,
        tx: { TransactionType: 'AMMDeposit', Asset: issue(m.base), Asset2: issue(m.token), ...tx },
        purpose: 'add-liquidity',
        userId,
        walletId: wallet.id,
      },
      need,
      { issuer: b.issuer, token: b.token, ...(b.baseAsset ? { baseAsset: b.baseAsset } : {}) },
      async (outcome) => this.added(outcome, m, wallet.address, pool),
    );
  }

  /** The answer of a deposit from its outcome (both kinds of wallet). */
  private async added(
    outcome: SubmissionOutcome,
    m: Market,
    address: string,
    pool?: Pool,
  ): Promise<AddLiquidityResult> {
    if (outcome.status !== 'success') this.fail(LIQUIDITY_MESSAGES.addFailed, outcome);
    const moved = this.moved(outcome.balanceChanges, pool ?? (await this.poolOrNone(m)), m, address);
    return {
      status: 'success',
      message: LIQUIDITY_MESSAGES.added,
      hash: outcome.hash,
      lpTokens: plain(moved.lp),
      deposited: { base: plain(moved.base), token: plain(moved.token) },
    };
  }

  /**
   * POST /api/remove-liquidity. Double: tfLPToken (both sides pro rata, no fee). Single:
   * tfOneAssetLPToken redeeming exactly `amountLp` for one asset; with a limit price the ledger is
   * given the least it must pay, amountLp ÷ limitPrice, so it refuses (tecAMM_FAILED) a withdrawal
   * whose effective price in LP tokens per unit is above the limit (docs/liquidity.md).
   */
  async remove(
    userId: number,
    b: Parsed<typeof removeLiquiditySchema>,
    idempotencyKey?: string,
  ): Promise<RemoveLiquidityResult | IntentRequired> {
    const wallet = await this.wallet(userId, b.wallet);
    const m = await this.market(b.issuer, b.token, b.baseAsset);
    const intentKey = `remove-liquidity:${userId}:${idempotencyKey ?? randomUUID()}`;
    const selfCustody = !serverSigns(wallet.kind as WalletKind);
    // A self-custody wallet's retry answers the intent it was given (before the checks below).
    const known = idempotencyKey && selfCustody ? await this.deps.intents?.known(intentKey) : undefined;
    if (known) return { status: 'sign', intent: known };
    // A retry whose first attempt withdrew answers with that withdrawal; checked again, the LP
    // tokens it redeemed would read as "more than held" (and the pool may be gone with them).
    const done = idempotencyKey && !selfCustody ? await this.deps.submissions.existing(intentKey) : undefined;
    if (done) return this.removed(done, await this.poolOrNone(m), m, wallet.address);
    const pool = await this.pool(m);
    const held = await this.lpHeld(wallet.address, pool);
    const lp = new Decimal(b.amountLp);
    // More than held (none included): both figures.
    if (lp.gt(held))
      throw badRequest(
        `${LIQUIDITY_MESSAGES.lpOverBalance} ${insufficientTokenMessage(held, lp, this.lpName(m))}`,
        {
          asset: this.lpName(m),
          available: held.toFixed(),
          needed: lp.toFixed(),
        },
      );
    const lpIn = { currency: pool.lpCurrency, issuer: pool.account, value: plain(lp) };
    let tx: Record<string, unknown>;
    if (b.mode === 'double') {
      tx = { LPTokenIn: lpIn, Flags: AMMWithdrawFlags.tfLPToken };
    } else {
      const side = this.side(m, b, b.selectedAsset);
      // A limit the expected payout cannot meet is refused here, not by the ledger after signing
      // (tecAMM_FAILED, the network fee lost): the same figure the screen shows (issue 39).
      if (b.limitPrice !== '') {
        const isToken = side === m.token;
        const expected = payout(
          singleWithdrawOut(isToken ? pool.token : pool.base, lp, pool.lpTotal, pool.tradingFee),
          !isToken && m.base.kind === 'xrp',
        );
        const limit = singleWithdrawLimit(plain(lp), b.limitPrice, plain(expected));
        if (limit && !limit.met) {
          const unit = this.assetName(m, side);
          throw badRequest(LIQUIDITY_MESSAGES.limitUnmet(plain(expected), limit.needed, unit), {
            expected: plain(expected),
            needed: limit.needed,
          });
        }
      }
      const min: LedgerAmount =
        b.limitPrice !== ''
          ? ledgerAmount(side, lp.div(b.limitPrice), 'up')
          : side.kind === 'xrp'
            ? '0'
            : { currency: side.currency, issuer: side.issuer, value: '0' };
      tx = { LPTokenIn: lpIn, Amount: min, Flags: AMMWithdrawFlags.tfOneAssetLPToken };
    }
    // What comes out may need a trust line the wallet lacks (the token, RLUSD): its reserve.
    const outSides = b.mode === 'double' ? [m.base, m.token] : [this.side(m, b, b.selectedAsset)];
    let newLines = 0;
    for (const a of outSides) if (!(await this.hasLine(wallet.address, a))) newLines++;
    return this.run(
      wallet,
      {
        intentKey,
        account: wallet.address,
        tx: { TransactionType: 'AMMWithdraw', Asset: issue(m.base), Asset2: issue(m.token), ...tx },
        purpose: 'remove-liquidity',
        userId,
        walletId: wallet.id,
      },
      { transactions: 1, newObjects: newLines },
      { issuer: b.issuer, token: b.token, ...(b.baseAsset ? { baseAsset: b.baseAsset } : {}) },
      async (outcome) => this.removed(outcome, pool, m, wallet.address),
    );
  }

  private removed(
    outcome: SubmissionOutcome,
    pool: Pool | undefined,
    m: Market,
    wallet: string,
  ): RemoveLiquidityResult {
    if (outcome.status !== 'success') this.fail(LIQUIDITY_MESSAGES.removeFailed, outcome);
    const moved = this.moved(outcome.balanceChanges, pool, m, wallet);
    return {
      status: 'success',
      message: LIQUIDITY_MESSAGES.removed,
      hash: outcome.hash,
      lpTokens: plain(moved.lp.neg()),
      withdrawn: { base: plain(moved.base.neg()), token: plain(moved.token.neg()) },
    };
  }

  /** POST /api/lp-token-balance: the wallet's LP tokens of the pool ('0' when it has none, or no pool). */
  async lpBalance(userId: number, b: Parsed<typeof lpBalanceSchema>): Promise<LpBalanceResult> {
    const wallet = await this.wallet(userId, b.wallet);
    const base = (b.baseCurrency ?? 'XRP').toUpperCase();
    const baseAsset: QuoteAsset | undefined =
      base === 'XRP' || base === ''
        ? 'XRP'
        : base === 'RLUSD' || base === RLUSD_CURRENCY_HEX
          ? 'RLUSD'
          : undefined;
    if (!baseAsset) throw badRequest('baseCurrency must be XRP or RLUSD.');
    const m = await this.market(b.issuer, b.token, baseAsset);
    const pool = await this.poolOrNone(m);
    if (!pool) return { status: 'success', balance: '0' };
    const held = await this.lpHeld(wallet.address, pool);
    return {
      status: 'success',
      balance: held.toFixed(),
      lpCurrency: pool.lpCurrency,
      ammAccount: pool.account,
    };
  }

  /** POST /api/amm-vote: AMMVote; the pool's fee becomes the LP-token-weighted mean of the votes. */
  async vote(
    userId: number,
    b: Parsed<typeof ammVoteSchema>,
    idempotencyKey?: string,
  ): Promise<AmmVoteResult | IntentRequired> {
    const wallet = await this.wallet(userId, b.wallet);
    const m = await this.market(b.issuer, b.token, b.baseAsset);
    const pool = await this.pool(m);
    // Only LP token holders vote: refused here rather than paying a fee for tecAMM_INVALID_TOKENS.
    if ((await this.lpHeld(wallet.address, pool)).lte(0)) throw badRequest(LIQUIDITY_MESSAGES.noLpTokens);
    return this.run(
      wallet,
      {
        intentKey: `amm-vote:${userId}:${idempotencyKey ?? randomUUID()}`,
        account: wallet.address,
        tx: {
          TransactionType: 'AMMVote',
          Asset: issue(m.base),
          Asset2: issue(m.token),
          TradingFee: b.tradingFee,
        },
        purpose: 'amm-vote',
        userId,
        walletId: wallet.id,
      },
      { transactions: 1 },
      { issuer: b.issuer, token: b.token, ...(b.baseAsset ? { baseAsset: b.baseAsset } : {}) },
      (outcome) => this.voted(outcome, m, wallet.address),
    );
  }

  /** The answer of a vote from its outcome (both kinds of wallet). */
  private async voted(outcome: SubmissionOutcome, m: Market, address: string): Promise<AmmVoteResult> {
    if (outcome.status !== 'success') this.fail(LIQUIDITY_MESSAGES.voteFailed, outcome);
    // What the vote changed, read from the pool as of the ledger that validated it: the fee now in
    // force and this wallet's slot (its weight), not a success for a change that did not happen.
    const after = await this.voteSlots(m, outcome.ledgerIndex);
    const mine = after.slots.find((v) => v.account === address);
    if (!mine) throw ledgerFailure(outcome, LIQUIDITY_MESSAGES.voteNotRecorded);
    // vote_weight is in 1/100,000 of the pool's LP tokens; trading_fee in 1/100,000.
    const weight = new Decimal(mine.vote_weight).div(1000).toDecimalPlaces(2, Decimal.ROUND_DOWN).toFixed(2);
    const fee = new Decimal(after.tradingFee).div(1000).toFixed(3);
    return {
      status: 'success',
      hash: outcome.hash,
      tradingFee: after.tradingFee,
      voteWeightPercent: weight,
      message: LIQUIDITY_MESSAGES.voteRecorded(weight, fee),
    };
  }

  /** The pool's fee and vote slots at a ledger (the vote's), or the open ledger. */
  private async voteSlots(
    m: Market,
    ledgerIndex: number | null,
  ): Promise<{ tradingFee: number; slots: Array<{ account: string; vote_weight: number }> }> {
    const r = await this.deps.client.request({
      command: 'amm_info',
      asset: issue(m.base) as never,
      asset2: issue(m.token) as never,
      ledger_index: ledgerIndex ?? 'current',
    });
    const amm = r.result.amm as {
      trading_fee?: number;
      vote_slots?: Array<{ account: string; vote_weight: number }>;
    };
    return { tradingFee: Number(amm.trading_fee ?? 0), slots: amm.vote_slots ?? [] };
  }

  private lpName(m: Market): string {
    return lpName(currencyToTicker(m.token.currency));
  }

  private async hasLpLine(address: string, pool: Pool): Promise<boolean> {
    return (await this.deps.wallets.lines(address, pool.account)).some((l) => l.currency === pool.lpCurrency);
  }

  /**
   * POST /api/lp-position: the wallet's share of the pool, what it is worth, and how it did against
   * holding what it deposited (fees earned, impermanent loss), from its transactions on the ledger.
   */
  async position(userId: number, b: Parsed<typeof lpPositionSchema>): Promise<LpPositionResult> {
    const wallet = await this.wallet(userId, b.wallet);
    const m = await this.market(b.issuer, b.token, b.baseAsset);
    const pool = await this.pool(m);
    const lp = await this.lpHeld(wallet.address, pool);
    const entries = await this.history(wallet.address);
    const inputs: PositionEventInput[] = [];
    const history: LpPositionEvent[] = [];
    const is = (a: Asset) => (x: { currency: string; issuer?: string }) =>
      a.kind === 'xrp' ? x.currency === 'XRP' : x.currency === a.currency && x.issuer === a.issuer;
    for (const e of entries) {
      const tx = e.tx_json ?? e.tx;
      const meta = typeof e.meta === 'object' ? e.meta : undefined;
      if (!tx || !meta || meta.TransactionResult !== 'tesSUCCESS') continue;
      const mine = getBalanceChanges(meta).find((c) => c.account === wallet.address)?.balances ?? [];
      const sum = (match: (x: { currency: string; issuer?: string }) => boolean) =>
        mine.filter(match).reduce((t, x) => t.plus(x.value), new Decimal(0));
      const lpMoved = sum((x) => x.currency === pool.lpCurrency && x.issuer === pool.account);
      if (lpMoved.isZero()) continue;
      const own = tx.Account === wallet.address;
      const fee = own ? dropsToDecimal(String(tx.Fee ?? '0')) : new Decimal(0);
      // The wallet's changes, with the network fee of its own transaction left out of the XRP side.
      const baseMoved = sum(is(m.base)).plus(m.base.kind === 'xrp' ? fee : 0);
      const tokenMoved = sum(is(m.token));
      const type = tx.TransactionType;
      const kind: LpPositionEvent['kind'] =
        own && type === 'AMMCreate'
          ? 'create'
          : own && type === 'AMMDeposit'
            ? 'deposit'
            : own && type === 'AMMWithdraw'
              ? 'withdraw'
              : type === 'AMMBid'
                ? 'bid'
                : 'transfer';
      const ledgerIndex = Number(e.ledger_index ?? tx.ledger_index ?? 0);
      // The pool after the event's ledger; the pool now when that ledger is no longer kept.
      const after = (await this.poolOrNone(m, ledgerIndex).catch(() => undefined)) ?? pool;
      inputs.push({
        lp: lpMoved,
        base: baseMoved.neg(),
        token: tokenMoved.neg(),
        unpaid: kind === 'transfer' || (kind === 'bid' && lpMoved.gt(0)),
        spent: kind === 'bid' && lpMoved.lt(0),
        pool: after,
      });
      const time = e.close_time_iso
        ? Date.parse(e.close_time_iso)
        : typeof tx.date === 'number'
          ? rippleTimeToUnixTime(tx.date)
          : null;
      history.push({
        hash: String(e.hash ?? tx.hash ?? ''),
        ledgerIndex,
        time,
        kind,
        base: plain(baseMoved.neg()),
        token: plain(tokenMoved.neg()),
        lp: plain(lpMoved),
      });
    }
    const f = positionFigures(foldPosition(inputs), pool, lp);
    const baseXrp = m.base.kind === 'xrp';
    const amount = (d: Decimal) =>
      (baseXrp ? d.toDecimalPlaces(6, Decimal.ROUND_HALF_EVEN) : d).toSignificantDigits(15).toFixed();
    return {
      status: 'success',
      quote: m.baseName,
      lpBalance: lp.toFixed(),
      lpTotal: pool.lpTotal.toFixed(),
      share: f.share.mul(100).toDecimalPlaces(6, Decimal.ROUND_DOWN).toFixed(),
      current: { base: amount(f.currentBase), token: plain(f.currentToken), value: amount(f.value) },
      deposited: { base: amount(f.depositedBase), token: plain(f.depositedToken) },
      holdValue: amount(f.holdValue),
      pnl: amount(f.pnl),
      feesEarned: amount(f.feesEarned),
      impermanentLoss: amount(f.impermanentLoss),
      history: history.reverse(),
    };
  }

  /** The wallet's validated transactions, oldest first (paged). */
  private async history(account: string): Promise<AccountTxEntry[]> {
    const out: AccountTxEntry[] = [];
    let marker: unknown;
    for (let page = 0; page < 50; page++) {
      const r = await this.deps.client.request({
        command: 'account_tx',
        account,
        ledger_index_min: -1,
        ledger_index_max: -1,
        forward: true,
        limit: 400,
        ...(marker ? { marker } : {}),
      });
      out.push(...(r.result.transactions as unknown as AccountTxEntry[]));
      marker = r.result.marker;
      if (!marker) break;
    }
    return out;
  }

  private slotView(pool: Pool): AmmAuctionView {
    const slot = pool.auctionSlot;
    const owned = slot !== undefined && slot.time_interval < TAILING_INTERVAL;
    const { price, refund } = auctionPrice(
      pool.lpTotal,
      pool.tradingFee,
      owned ? { price: new Decimal(slot.price.value), interval: slot.time_interval } : undefined,
    );
    return {
      status: 'success',
      holder: owned ? slot.account : null,
      expiresAt: owned ? slot.expiration : null,
      interval: owned ? slot.time_interval : null,
      tradingFee: pool.tradingFee,
      discountedFee: Math.trunc(pool.tradingFee / 10),
      // Shown rounded up: as a bid's maximum it always covers what the ledger charges.
      price: price.toSignificantDigits(15, Decimal.ROUND_UP).toFixed(),
      refund: refund.toSignificantDigits(15, Decimal.ROUND_DOWN).toFixed(),
      lpCurrency: pool.lpCurrency,
    };
  }

  /** POST /api/amm-auction: the pool's auction slot, and what a bid costs now (rippled's AMMBid rule). */
  async auction(b: Parsed<typeof ammAuctionSchema>): Promise<AmmAuctionView> {
    const m = await this.market(b.issuer, b.token, b.baseAsset);
    return this.slotView(await this.pool(m));
  }

  /**
   * POST /api/amm-bid: AMMBid for the slot from the caller's wallet, paying at most the price the
   * screen showed (BidMax). Refused before signing when the wallet's LP tokens cannot pay it.
   */
  async bid(userId: number, b: Parsed<typeof ammBidSchema>, idempotencyKey?: string): Promise<AmmBidResult> {
    const wallet = await this.wallet(userId, b.wallet);
    const m = await this.market(b.issuer, b.token, b.baseAsset);
    const pool = await this.pool(m);
    const intentKey = `amm-bid:${userId}:${idempotencyKey ?? randomUUID()}`;
    // A retry whose first attempt won the slot answers with that bid; checked again, the slot's
    // new price (its own bid) would read as "price moved" or "too low".
    const done = idempotencyKey ? await this.deps.submissions.existing(intentKey) : undefined;
    if (done) return this.bidResult(done, pool, m, wallet.address);
    const held = await this.lpHeld(wallet.address, pool);
    const now = this.slotView(pool);
    if (held.lt(now.price))
      throw badRequest(
        `${LIQUIDITY_MESSAGES.bidTooLow} ${insufficientTokenMessage(held, now.price, this.lpName(m))}`,
        {
          asset: this.lpName(m),
          available: held.toFixed(),
          needed: now.price,
        },
      );
    if (new Decimal(now.price).gt(b.maxPrice)) throw badRequest(LIQUIDITY_MESSAGES.bidPriceMoved);
    const outcome = await this.checked(
      {
        intentKey,
        account: wallet.address,
        tx: {
          TransactionType: 'AMMBid',
          Asset: issue(m.base),
          Asset2: issue(m.token),
          BidMax: { currency: pool.lpCurrency, issuer: pool.account, value: b.maxPrice },
        },
        purpose: 'amm-bid',
        userId,
        walletId: wallet.id,
      },
      () => this.deps.funds.requireXrp(wallet.address, { transactions: 1 }),
    );
    return this.bidResult(outcome, pool, m, wallet.address);
  }

  private async bidResult(
    outcome: SubmissionOutcome,
    pool: Pool,
    m: Market,
    wallet: string,
  ): Promise<AmmBidResult> {
    if (outcome.status !== 'success') {
      if (outcome.result === 'tecAMM_FAILED')
        throw badRequest(LIQUIDITY_MESSAGES.bidPriceMoved, { hash: outcome.hash, result: outcome.result });
      this.fail(LIQUIDITY_MESSAGES.bidFailed, outcome);
    }
    const moved = this.moved(outcome.balanceChanges, pool, m, wallet);
    return {
      status: 'success',
      hash: outcome.hash,
      paid: plain(moved.lp.neg()),
      slot: this.slotView(await this.pool(m)),
    };
  }

  /**
   * POST /api/get-lp-price: LP tokens per unit of each side, T ÷ (2 × side), and with `amountLp`
   * what redeeming it would withdraw now in each mode (the XLS-30 formulas, math.ts).
   */
  async lpPrice(b: Parsed<typeof lpPriceSchema>): Promise<LpPriceResult> {
    const m = await this.market(b.issuer, b.token, b.baseAsset);
    const pool = await this.pool(m);
    const res: LpPriceResult = {
      status: 'success',
      lpPerBase: plain(lpPerUnit(pool.base, pool.lpTotal)),
      lpPerToken: plain(lpPerUnit(pool.token, pool.lpTotal)),
      lpTotal: pool.lpTotal.toFixed(),
      pool: { base: pool.base.toFixed(), token: pool.token.toFixed() },
      tradingFee: pool.tradingFee,
    };
    if (/^\d+(\.\d+)?$/.test(b.amountLp) && new Decimal(b.amountLp).gt(0)) {
      const lp = Decimal.min(new Decimal(b.amountLp), pool.lpTotal);
      const baseXrp = m.base.kind === 'xrp';
      const double = doubleWithdraw(pool, lp);
      res.expected = {
        double: { base: plain(payout(double.base, baseXrp)), token: plain(payout(double.token, false)) },
        singleBase: plain(payout(singleWithdrawOut(pool.base, lp, pool.lpTotal, pool.tradingFee), baseXrp)),
        singleToken: plain(payout(singleWithdrawOut(pool.token, lp, pool.lpTotal, pool.tradingFee), false)),
      };
    }
    // What a deposit would issue (the Add form's 'LP tokens you will receive'), by the same formulas
    // as the ledger (math.ts), rounded down: never more than the ledger will give.
    const amount = (v: string) => (/^\d+(\.\d+)?$/.test(v) && new Decimal(v).gt(0) ? new Decimal(v) : null);
    const base = amount(b.depositBase);
    const tok = amount(b.depositToken);
    if (base || tok) {
      const lpOut = (v: Decimal) => plain(payout(v, false));
      res.deposit = {};
      if (base)
        res.deposit.singleBase = lpOut(singleDepositLpOut(pool.base, base, pool.lpTotal, pool.tradingFee));
      if (tok)
        res.deposit.singleToken = lpOut(singleDepositLpOut(pool.token, tok, pool.lpTotal, pool.tradingFee));
      if (base && tok) {
        const both = twoAssetDeposit(pool, base, tok);
        res.deposit.double = {
          lpTokens: lpOut(both.lpTokens),
          used: { base: plain(both.base), token: plain(both.token) },
        };
      }
    }
    return res;
  }
}
