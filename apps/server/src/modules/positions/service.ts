import type { Client } from 'xrpl';
import { lockedByToken } from '../../ledger/escrows';
import {
  currencyToTicker,
  isLpCurrency,
  RLUSD_CURRENCY_HEX,
  RLUSD_TICKER,
  type PositionToken,
  type PositionView,
  type PositionLiquidity,
  lpPositionFigures,
  amountValue,
  type LedgerAmount,
  Decimal,
  dropsToDecimal,
  dropsToXrp,
} from '@ledgerpad/shared';
import { inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { priceKey, type MarketSnapshot } from '../market';
import type { WalletsApi } from '../wallets';
import { costBasis, emptyBasis, positionFigures, round6, type CostBasis, type CostTrade } from './cost-basis';
import { positionTrades, type PositionTrade } from './fills';
import { realisableXrp, sellDepth, type SellDepth } from './realisable';
import { positionBases, positionCheckpoints } from './schema';

// Positions: per wallet of the user, its XRP and each token it holds on the validated ledger, with
// value and profit and loss in XRP. Quantities come from the ledger; the cost basis from the trades
// the market indexer recorded for the wallet (docs/positions.md has the rule and its limits).

export interface PositionsDeps {
  db: Db;
  wallets: Pick<WalletsApi, 'list' | 'lines' | 'accountState'>;
  snapshot: Pick<MarketSnapshot, 'get'>;
  /** The network's RLUSD issuer: RLUSD holdings are a position too, priced by the XRP/RLUSD pool. */
  rlusdIssuer?: () => Promise<string | undefined>;
  /** Reads the wallets' escrows: tokens locked in them show as locked (absent without a ledger). */
  client?: Client;
  /**
   * The bonding module's answer: a token's curve account while it trades on it (its ladder's bids
   * carry the platform's fee inside their prices, so a sale into them is charged none here).
   */
  curves?: { activeCurveAccount(issuer: string, currency: string): Promise<string | undefined> };
  /** The user's trading fee in percent (the trading module's rule): a sale's realisable value is net of it. */
  feePercent?: (userId: number) => Promise<string>;
}

export class PositionsService {
  constructor(private readonly deps: PositionsDeps) {}

  async positions(userId: number): Promise<PositionView[]> {
    const { wallets } = this.deps;
    const rows = await wallets.list(userId);
    if (rows.length === 0) return [];
    const addresses = rows.map((r) => r.address);
    // The ledger reads run beside the database ones; RLUSD trades need the snapshot's XRP/USD price.
    const [[snap, bases], ledger, rlusd] = await Promise.all([
      this.deps.snapshot.get().then(async (s) => [s, await this.bases(userId, addresses, s.xrpUsd)] as const),
      Promise.all(
        rows.map((r) =>
          Promise.all([
            wallets.accountState(r.address),
            wallets.lines(r.address),
            this.deps.client ? lockedByToken(this.deps.client, r.address) : new Map<string, Decimal>(),
          ]).then(async ([state, lines, locked]) => {
            const lp = lines.filter((l) => isLpCurrency(l.currency) && new Decimal(l.balance).gt(0));
            const pools = await Promise.all(lp.map((l) => this.pool(l.account)));
            return [state, lines, locked, lp.map((l, j) => ({ line: l, pool: pools[j] }))] as const;
          }),
        ),
      ),
      this.deps.rlusdIssuer?.(),
    ]);
    // RLUSD's price in XRP: the XRP/RLUSD pool's (RLUSD per XRP), inverted.
    const xrpPerRlusd =
      snap.xrpUsd && new Decimal(snap.xrpUsd).gt(0) ? new Decimal(1).div(snap.xrpUsd) : null;
    const isRlusd = (currency: string, issuer: string) => currency === RLUSD_CURRENCY_HEX && issuer === rlusd;
    // The sell side of each token some wallet holds (read once per token), and the user's fee rate.
    const held = new Map<string, { currency: string; issuer: string }>();
    for (const [, lines] of ledger)
      for (const l of lines)
        if (!isLpCurrency(l.currency) && new Decimal(l.balance).gt(0))
          held.set(priceKey(l.currency, l.account), { currency: l.currency, issuer: l.account });
    const [depths, feePercent] = await Promise.all([
      Promise.all(
        [...held].map(async ([k, tok]) => [k, await this.depth(tok, snap, isRlusd, rlusd)] as const),
      ).then((all) => new Map(all)),
      this.deps.feePercent ? this.deps.feePercent(userId) : Promise.resolve('0'),
    ]);
    const realisable = (currency: string, issuer: string, balance: string) =>
      realisableXrp(depths.get(priceKey(currency, issuer)), new Decimal(balance), feePercent, xrpPerRlusd);
    return rows.map((row, i) => {
      const [state, lines, locked, lpLines] = ledger[i]!;
      const mine = bases.get(row.address) ?? new Map<string, CostBasis>();
      const tokens: PositionToken[] = [];
      const seen = new Set<string>();
      for (const line of lines) {
        // LP tokens are pool shares (the liquidity screen shows them), not token positions.
        if (isLpCurrency(line.currency)) continue;
        const balance = new Decimal(line.balance);
        const k = priceKey(line.currency, line.account);
        const basis = mine.get(k);
        const inEscrow = locked.get(`${line.currency}|${line.account}`);
        // A line at zero (or owed to others) is a position only when trades left realized profit or
        // loss, or when its tokens are locked in the wallet's escrows.
        if (balance.lte(0) && (!basis || basis.realized.isZero()) && !inEscrow?.gt(0)) continue;
        seen.add(k);
        const spendable = balance.gt(0) ? line.balance : '0';
        const view = this.token(
          line.currency,
          line.account,
          spendable,
          basis,
          snap,
          {
            rlusd: isRlusd(line.currency, line.account),
            xrpPerRlusd,
          },
          realisable(line.currency, line.account, spendable),
        );
        tokens.push(inEscrow?.gt(0) ? { ...view, locked: inEscrow.toFixed() } : view);
      }
      // Closed positions whose trust line is gone still carry what their sales realized.
      for (const [k, basis] of mine) {
        if (seen.has(k) || basis.realized.isZero()) continue;
        const [currency, issuer] = k.split('|') as [string, string];
        tokens.push(
          this.token(
            currency,
            issuer,
            '0',
            basis,
            snap,
            { rlusd: isRlusd(currency, issuer), xrpPerRlusd },
            new Decimal(0),
          ),
        );
      }
      const liquidity: PositionLiquidity[] = [];
      for (const { line, pool } of lpLines) {
        if (!pool) continue;
        const xrpPerQuote = pool.quote === 'XRP' ? '1' : xrpPerRlusd ? xrpPerRlusd.toFixed() : null;
        liquidity.push({
          lpCurrency: line.currency,
          ammAccount: line.account,
          ticker:
            pool.token.currency === RLUSD_CURRENCY_HEX ? RLUSD_TICKER : currencyToTicker(pool.token.currency),
          tokenCode: pool.token.currency,
          issuer: pool.token.issuer,
          quote: pool.quote,
          lpBalance: new Decimal(line.balance).toFixed(),
          ...lpPositionFigures({
            lpBalance: line.balance,
            lpSupply: pool.lpSupply,
            poolQuote: pool.poolQuote,
            poolTokens: pool.poolTokens,
            xrpPerQuote,
          }),
        });
      }
      return {
        wallet: row.address,
        walletName: row.name,
        xrpBalance: dropsToXrp(state.balanceDrops),
        tokens,
        ...(liquidity.length ? { liquidity } : {}),
      };
    });
  }

  /**
   * A pool by its AMM account on the validated ledger: its LP supply, and which side is the quote
   * (XRP, else RLUSD) and which the token. Undefined without a ledger, for a pool gone, or one with
   * neither XRP nor RLUSD (no value in XRP to give).
   */
  private async pool(ammAccount: string): Promise<
    | {
        lpSupply: string;
        quote: 'XRP' | 'RLUSD';
        poolQuote: string;
        poolTokens: string;
        token: { currency: string; issuer: string };
      }
    | undefined
  > {
    const client = this.deps.client;
    if (!client) return undefined;
    try {
      const r = await client.request({
        command: 'amm_info',
        amm_account: ammAccount,
        ledger_index: 'validated',
      });
      const a = r.result.amm.amount as LedgerAmount;
      const b = r.result.amm.amount2 as LedgerAmount;
      const rlusd = await this.deps.rlusdIssuer?.();
      const isRlusd = (x: LedgerAmount) =>
        typeof x !== 'string' && x.currency === RLUSD_CURRENCY_HEX && x.issuer === rlusd;
      const [quote, token] =
        typeof a === 'string'
          ? [a, b]
          : typeof b === 'string'
            ? [b, a]
            : isRlusd(a)
              ? [a, b]
              : isRlusd(b)
                ? [b, a]
                : [];
      if (!quote || !token || typeof token === 'string') return undefined;
      return {
        lpSupply: r.result.amm.lp_token.value,
        quote: typeof quote === 'string' ? 'XRP' : 'RLUSD',
        poolQuote: amountValue(quote).toFixed(),
        poolTokens: token.value,
        token: { currency: token.currency, issuer: token.issuer },
      };
    } catch {
      return undefined;
    }
  }

  /**
   * Where a sale of the token would go: RLUSD into the XRP/RLUSD pool; a listed token into its
   * market (the snapshot's pair: its pool, else its curve's ladder or the book). Undefined without a
   * ledger or a market (no price: its realisable value is 0).
   */
  private async depth(
    token: { currency: string; issuer: string },
    snap: Awaited<ReturnType<MarketSnapshot['get']>>,
    isRlusd: (currency: string, issuer: string) => boolean,
    rlusd: string | undefined,
  ): Promise<SellDepth | undefined> {
    const client = this.deps.client;
    if (!client) return undefined;
    if (isRlusd(token.currency, token.issuer)) return sellDepth(client, token, { kind: 'XRP' }, undefined);
    const record = snap.priceByKey.get(priceKey(token.currency, token.issuer));
    if (!record || !new Decimal(record.priceInXRP).gt(0)) return undefined;
    if (record.liquidityPair === 'RLUSD' && !rlusd) return undefined;
    const quote =
      record.liquidityPair === 'RLUSD'
        ? { kind: 'RLUSD' as const, issuer: rlusd! }
        : { kind: 'XRP' as const };
    const curve = await this.deps.curves?.activeCurveAccount(token.issuer, token.currency);
    return sellDepth(client, token, quote, curve);
  }

  private token(
    currency: string,
    issuer: string,
    balance: string,
    basis: CostBasis | undefined,
    snap: Awaited<ReturnType<MarketSnapshot['get']>>,
    rlusd: { rlusd: boolean; xrpPerRlusd: Decimal | null },
    realisable: Decimal,
  ): PositionToken {
    const price = rlusd.rlusd
      ? (rlusd.xrpPerRlusd ?? '0')
      : (snap.priceByKey.get(priceKey(currency, issuer))?.priceInXRP ?? '0');
    const f = positionFigures(basis ?? emptyBasis(), balance, price, realisable);
    return {
      tokenCode: currency,
      ticker: rlusd.rlusd ? RLUSD_TICKER : currencyToTicker(currency),
      issuer,
      balance: new Decimal(balance).toFixed(),
      valueInXRP: round6(f.valueInXRP),
      realisableXRP: f.realisableXRP.toDecimalPlaces(6, Decimal.ROUND_DOWN).toFixed(),
      realizedPNL: round6(f.realizedPNL),
      unrealizedPNL: round6(f.unrealizedPNL),
      totalPNL: round6(f.totalPNL),
    };
  }

  /**
   * Average-cost bases per wallet and token (`currency|issuer`), from one ordered read of the
   * wallets' trades. RLUSD-quoted trades count in XRP at the current XRP/USD price; without one
   * they are left out (their tokens then enter at the current price, see docs/positions.md).
   *
   * A wallet's checkpoint (docs/positions.md "Checkpoints") holds its bases through some ledger: the
   * read starts from them and folds only the trades of later ledgers (a range of the (account,
   * ledger) indexes), then moves the checkpoint to the latest ledger it folded — unless one of
   * those trades was RLUSD-quoted, whose XRP value changes with the price. The fold is exact either
   * way (the bases are exact decimals), so a checkpoint changes no digit, only the work.
   */
  private async bases(
    userId: number,
    addresses: string[],
    xrpUsd: string | null,
  ): Promise<Map<string, Map<string, CostBasis>>> {
    const { db } = this.deps;
    const usd = xrpUsd && new Decimal(xrpUsd).gt(0) ? new Decimal(xrpUsd) : null;
    const out = new Map<string, Map<string, CostBasis>>();
    const of = (account: string) => {
      let mine = out.get(account);
      if (!mine) out.set(account, (mine = new Map()));
      return mine;
    };
    const [checkpoints, saved] = await Promise.all([
      db.select().from(positionCheckpoints).where(inArray(positionCheckpoints.account, addresses)),
      db.select().from(positionBases).where(inArray(positionBases.account, addresses)),
    ]);
    const through = new Map(checkpoints.map((c) => [c.account, c.throughLedger]));
    for (const b of saved) {
      if (!through.has(b.account)) continue;
      of(b.account).set(priceKey(b.currency, b.issuer), {
        quantity: new Decimal(b.quantity),
        cost: new Decimal(b.cost),
        realized: new Decimal(b.realized),
      });
    }
    const latest = new Map<string, number>();
    const priced = new Set<string>();
    const changed: Array<{ account: string; currency: string; issuer: string }> = [];
    for (const group of await positionTrades(db, userId, addresses, through)) {
      const mine = of(group.account);
      const key = priceKey(group.currency, group.issuer);
      mine.set(key, costBasis(inXrp(group.trades, usd), mine.get(key)));
      changed.push(group);
      latest.set(group.account, Math.max(latest.get(group.account) ?? -1, group.lastLedger));
      // An RLUSD trade's XRP value moves with the price; an unsettled fee may still change: neither
      // can be kept in a checkpoint.
      if (group.rlusdQuoted || group.unsettled) priced.add(group.account);
    }
    const advance = [...latest].filter(([account]) => !priced.has(account));
    if (advance.length) await this.checkpoint(advance, changed, out);
    return out;
  }

  /** Moves wallets' checkpoints forward with their new bases, in one transaction (never backward). */
  private async checkpoint(
    advance: Array<[string, number]>,
    changed: Array<{ account: string; currency: string; issuer: string }>,
    bases: Map<string, Map<string, CostBasis>>,
  ): Promise<void> {
    await this.deps.db.transaction(async (tx) => {
      const moved = await tx
        .insert(positionCheckpoints)
        .values(advance.map(([account, throughLedger]) => ({ account, throughLedger })))
        .onConflictDoUpdate({
          target: positionCheckpoints.account,
          set: { throughLedger: sql`excluded.through_ledger` },
          setWhere: sql`${positionCheckpoints.throughLedger} < excluded.through_ledger`,
        })
        .returning({ account: positionCheckpoints.account });
      const ok = new Set(moved.map((m) => m.account));
      const rows = changed
        .filter((g) => ok.has(g.account))
        .map((g) => {
          const b = bases.get(g.account)!.get(priceKey(g.currency, g.issuer))!;
          return {
            account: g.account,
            currency: g.currency,
            issuer: g.issuer,
            quantity: b.quantity.toFixed(),
            cost: b.cost.toFixed(),
            realized: b.realized.toFixed(),
          };
        });
      if (rows.length === 0) return;
      await tx
        .insert(positionBases)
        .values(rows)
        .onConflictDoUpdate({
          target: [positionBases.account, positionBases.currency, positionBases.issuer],
          set: {
            quantity: sql`excluded.quantity`,
            cost: sql`excluded.cost`,
            realized: sql`excluded.realized`,
          },
        });
    });
  }
}

/**
 * The trades in XRP: an RLUSD amount at the current XRP/USD price (none without one). Each with its
 * fees in XRP — the platform fee (in the trade's quote asset, converted the same way) and the
 * network fees in drops — so the basis is net of fees (issue 39).
 */
function* inXrp(trades: Iterable<PositionTrade>, usd: Decimal | null): Generator<CostTrade> {
  for (const t of trades) {
    const toXrp = (v: string) => (t.quote === 'XRP' ? new Decimal(v) : usd ? new Decimal(v).div(usd) : null);
    const network = t.networkDrops === '0' ? null : dropsToDecimal(t.networkDrops);
    const platform = t.platformFee === '0' ? null : toXrp(t.platformFee);
    yield {
      side: t.side,
      tokenAmount: t.tokenAmount,
      xrpAmount: t.quote === 'XRP' ? t.quoteAmount : usd ? new Decimal(t.quoteAmount).div(usd) : null,
      ...(network || platform
        ? { feeXrp: (platform ?? new Decimal(0)).plus(network ?? new Decimal(0)) }
        : {}),
    };
  }
}
