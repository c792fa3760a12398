import { lockedByToken } from '../../ledger/escrows';
import { ledgerReader, type LedgerReader } from '../../ledger/local-ledger';
import { LedgerEntry, RippledError, type AccountLinesTrustline, type Client } from 'xrpl';
import {
  currencyToTicker,
  isLpCurrency,
  lpName,
  RLUSD_CURRENCY_HEX,
  TRADING_FEE_PERCENT,
  availableXrp,
  WALLET_STATUS,
  type Trustline,
  type LedgerObjectsResponse,
  type WalletBalance,
  type WalletToken,
  type Decimal,
  dropsToXrp,
  DEFAULT_RESERVE_BASE_DROPS,
  DEFAULT_RESERVE_INCREMENT_DROPS,
} from '@ledgerpad/shared';
import { ledgerUnavailable } from '../../lib/errors';
import { customFeePercent } from '../users';
import type { WalletRow } from '../../platform/custody';
import { kindOf, WalletRecords, type AccountState } from './wallet-records';

function rippledError(err: unknown): string | undefined {
  return err instanceof RippledError ? (err.data as { error?: string } | undefined)?.error : undefined;
}

// The ledger reads of wallets: an address's state, reserve and trust lines, and a user's wallets'
// balances, objects and lines. Nothing here signs (wallet-actions.ts does).
export abstract class WalletReads extends WalletRecords {
  /** LP token issuer (AMM account) → the pool's token, which never changes for an AMM account. */
  private readonly ammTokens = new Map<string, { ticker: string; issuer: string } | null>();

  get client() {
    if (!this.deps.connection) throw ledgerUnavailable();
    return this.deps.connection.client;
  }

  /**
   * The client for reads: answered in-process by the embedded ledger when it runs in this thread
   * (ledger/local-ledger.ts). A claim burst reads every claimer's account and trust lines; over
   * the socket each read was JSON and a frame both ways on the thread that also applies the claims.
   */
  private get reader(): LedgerReader {
    if (!this.deps.connection) throw ledgerUnavailable();
    const { client, local } = this.deps.connection;
    if (this.readerOf?.client !== client) this.readerOf = { client, reader: ledgerReader(client, local) };
    return this.readerOf.reader;
  }
  private readerOf: { client: Client; reader: LedgerReader } | undefined;

  async accountState(address: string): Promise<AccountState> {
    const root = await this.validatedRoot(address);
    return root
      ? { activated: true, balanceDrops: BigInt(root.Balance), ownerCount: root.OwnerCount }
      : { activated: false, balanceDrops: 0n, ownerCount: 0 };
  }

  protected async recipientInfo(address: string): Promise<{ activated: boolean; requireTag: boolean }> {
    const root = await this.validatedRoot(address);
    return root
      ? { activated: true, requireTag: (root.Flags & LedgerEntry.AccountRootFlags.lsfRequireDestTag) !== 0 }
      : { activated: false, requireTag: false };
  }

  /** The account's root at the validated ledger; undefined when the account does not exist. */
  private async validatedRoot(address: string) {
    try {
      const info = await this.reader.request({
        command: 'account_info',
        account: address,
        ledger_index: 'validated',
      });
      return info.result.account_data;
    } catch (err) {
      if (rippledError(err) === 'actNotFound') return undefined;
      throw err;
    }
  }

  /** base reserve + owner count × owner reserve, in drops. */
  async reserveDrops(ownerCount: number): Promise<{ base: bigint; increment: bigint; total: bigint }> {
    const res = await this.client.request({ command: 'server_state' });
    const v = res.result.state.validated_ledger;
    const base = BigInt(v?.reserve_base ?? DEFAULT_RESERVE_BASE_DROPS);
    const increment = BigInt(v?.reserve_inc ?? DEFAULT_RESERVE_INCREMENT_DROPS);
    return { base, increment, total: base + BigInt(ownerCount) * increment };
  }

  /** The account's trust lines at the validated ledger; `reader`: another way to ask (ledger/local-ledger.ts). */
  async lines(
    address: string,
    peer?: string,
    reader: Pick<Client, 'request'> = this.reader,
  ): Promise<AccountLinesTrustline[]> {
    const out: AccountLinesTrustline[] = [];
    let marker: unknown;
    do {
      let res;
      try {
        res = await reader.request({
          command: 'account_lines',
          account: address,
          ledger_index: 'validated',
          peer,
          limit: 400,
          marker,
        });
      } catch (err) {
        if (rippledError(err) === 'actNotFound') return [];
        throw err;
      }
      out.push(...res.result.lines);
      marker = res.result.marker;
    } while (marker);
    return out;
  }

  /** For an LP token issuer (an AMM account): the pool's token ticker and issuer. */
  private async ammToken(ammAccount: string): Promise<{ ticker: string; issuer: string } | null> {
    if (this.ammTokens.has(ammAccount)) return this.ammTokens.get(ammAccount)!;
    let token: { ticker: string; issuer: string } | null = null;
    try {
      const res = await this.client.request({ command: 'amm_info', amm_account: ammAccount });
      const amm = res.result.amm;
      const assets = [amm.amount, amm.amount2].filter((a) => typeof a === 'object') as Array<{
        currency: string;
        issuer: string;
      }>;
      // An X/RLUSD pool is named after X; an XRP/RLUSD pool after RLUSD.
      const pick = assets.find((a) => a.currency !== RLUSD_CURRENCY_HEX) ?? assets[0];
      if (pick) token = { ticker: currencyToTicker(pick.currency), issuer: pick.issuer };
    } catch {
      token = null;
    }
    this.ammTokens.set(ammAccount, token);
    return token;
  }

  private async tokenOf(line: AccountLinesTrustline): Promise<WalletToken> {
    const base: WalletToken = {
      currency: currencyToTicker(line.currency),
      currencyCode: line.currency,
      issuer: line.account,
      realIssuer: line.account,
      value: line.balance,
    };
    if (!isLpCurrency(line.currency)) return base;
    const pool = await this.ammToken(line.account);
    return pool
      ? { ...base, realIssuer: pool.issuer, lpName: lpName(pool.ticker) }
      : { ...base, lpName: lpName('?') };
  }

  async balance(row: WalletRow): Promise<WalletBalance> {
    const state = await this.accountState(row.address);
    const reserves = await this.reserveDrops(state.ownerCount);
    const reserve = state.activated ? reserves.total : 0n;
    const committed = this.deps.funds ? await this.deps.funds.committedXrp(row.address) : 0n;
    const available = availableXrp(state.balanceDrops, state.ownerCount, {
      reserveBase: reserves.base,
      reserveIncrement: reserves.increment,
      baseFee: 0n,
    });
    // Lines with a negative balance are this account's own issues (it is the issuer), not holdings.
    const lines = (await this.lines(row.address)).filter((l) => !l.balance.startsWith('-'));
    const [tokens, locked, owed] = await Promise.all([
      Promise.all(lines.map((l) => this.tokenOf(l))),
      state.activated ? lockedByToken(this.client, row.address) : new Map<string, Decimal>(),
      this.deps.funds ? this.deps.funds.owedTokens(row.address) : new Map<string, Decimal>(),
    ]);
    for (const tok of tokens) {
      const key = `${tok.currencyCode}|${tok.issuer}`;
      const l = locked.get(key);
      if (l?.gt(0)) tok.locked = l.toFixed();
      // The server's funds check takes a token's unpaid fees off its balance (requireToken): say so.
      const o = owed.get(key);
      if (o?.gt(0)) tok.owed = o.toFixed();
    }
    return {
      id: row.id,
      wallet_address: row.address,
      wallet_name: row.name,
      ...kindOf(row),
      balance: dropsToXrp(state.balanceDrops),
      status: state.balanceDrops > 0n ? WALLET_STATUS.active : WALLET_STATUS.inactive,
      ledgerReserve: dropsToXrp(reserve),
      tokens,
      trustlines: tokens.map((t) => ({
        currency: t.currency,
        currencyCode: t.currencyCode,
        issuer: t.issuer,
      })),
      spendable: {
        ownerCount: state.ownerCount,
        available: dropsToXrp(state.activated && available > committed ? available - committed : 0n),
        committed: dropsToXrp(committed),
        baseReserve: dropsToXrp(reserves.base),
        ownerReserve: dropsToXrp(reserves.increment),
        networkFee: dropsToXrp(this.deps.submissions?.reserves.baseFee ?? 10n),
        tradingFeePercent: await this.tradingFeePercent(row.userId),
      },
    };
  }

  private async tradingFeePercent(userId: number | null): Promise<string> {
    const custom = userId === null ? null : await customFeePercent(this.db, userId);
    return custom ?? (await this.deps.tradingFeePercent?.()) ?? TRADING_FEE_PERCENT;
  }

  async balances(
    userId: number,
    selection?: Array<number | string | { id: number }>,
  ): Promise<WalletBalance[]> {
    let rows = await this.list(userId);
    if (selection?.length) {
      const wanted = new Set(selection.map((s) => (typeof s === 'object' ? String(s.id) : String(s))));
      rows = rows.filter((r) => wanted.has(String(r.id)) || wanted.has(r.address));
    }
    return Promise.all(rows.map((r) => this.balance(r)));
  }

  async ledgerObjects(userId: number, walletId: number): Promise<LedgerObjectsResponse> {
    const row = await this.owned(userId, walletId);
    const state = await this.accountState(row.address);
    const r = await this.reserveDrops(state.ownerCount);
    const objects: Array<{ type: string; index: string }> = [];
    if (state.activated) {
      let marker: unknown;
      do {
        const res = await this.client.request({
          command: 'account_objects',
          account: row.address,
          ledger_index: 'validated',
          limit: 400,
          marker,
        });
        for (const o of res.result.account_objects) objects.push({ type: o.LedgerEntryType, index: o.index });
        marker = res.result.marker;
      } while (marker);
    }
    return {
      reserve: dropsToXrp(state.activated ? r.total : 0n),
      baseReserve: dropsToXrp(r.base),
      ownerReserve: dropsToXrp(r.increment),
      ownerCount: state.ownerCount,
      objects,
    };
  }

  async trustlines(userId: number, walletId: number): Promise<{ trustlines: Trustline[] }> {
    const row = await this.owned(userId, walletId);
    const lines = await this.lines(row.address);
    const trustlines = await Promise.all(
      lines.map(async (l) => {
        const t = await this.tokenOf(l);
        return {
          currency: t.currency,
          currencyCode: l.currency,
          issuer: l.account,
          balance: l.balance,
          limit: l.limit,
          ...(t.lpName ? { lpName: t.lpName } : {}),
        };
      }),
    );
    return { trustlines };
  }
}
