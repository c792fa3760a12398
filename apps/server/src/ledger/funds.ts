import { randomBytes } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import {
  availableXrp,
  Decimal,
  dropsToXrp,
  insufficientTokenMessage,
  insufficientXrpMessage,
  plainDecimal,
  xrpNeeded,
  type DecimalValue,
  type LedgerReserves,
  type XrpAction,
} from '@ledgerpad/shared';
import { RippledError, type Client } from 'xrpl';
import { batchedCall, batchedWrite } from '../db/batched';
import type { Db } from '../db/client';
import { rowsOf } from '../db/results';
import { badRequest, conflict } from '../lib/errors';
import { fundsLocks } from './schema';
import type { SubmissionService } from './submission-service';

// Checked before signing (docs/money.md): every route that signs for a user asks here whether the
// wallet can pay everything its action takes — the amount, the platform fee, the network fees and
// the reserve of each new ledger object — against what it has left once the transactions still in
// flight and the fees it owes are counted. The check and the signing of one account run under one
// lease, so two actions of a wallet (two tabs, two instances) never both spend the same XRP.

/** What a wallet owes that the ledger does not show yet (fees of trades recorded, not yet paid…). */
export interface Obligations {
  /** XRP, in drops. */
  drops: bigint;
  /** Issued assets (RLUSD fees), keyed `currency|issuer`. */
  tokens?: Map<string, Decimal>;
}
export type ObligationSource = (account: string) => Promise<Obligations>;

export interface XrpCheck {
  /** Balance − reserve − XRP committed elsewhere, in drops (never below 0). */
  available: bigint;
  /** What the action needs, in drops. */
  needed: bigint;
}

export interface FundsDeps {
  db: Db;
  /** Reads only (ledger/local-ledger.ts: in-process when the embedded ledger runs in this thread). */
  client: Pick<Client, 'request'>;
  submissions: SubmissionService;
  /** How long one lease may be held (it is given back as soon as the action is signed). */
  leaseMs?: number;
}

interface AccountState {
  activated: boolean;
  balance: bigint;
  ownerCount: number;
  /** The next sequence on the validated ledger (0 when not activated). */
  sequence: number;
}

const LEASE_POLL_MS = 15;
const tokenKey = (currency: string, issuer: string) => `${currency}|${issuer}`;

export class Funds {
  private readonly obligations: ObligationSource[] = [];
  private readonly chains = new Map<string, Promise<unknown>>();
  private readonly owner = randomBytes(8).toString('hex');
  private readonly leaseMs: number;

  constructor(private readonly deps: FundsDeps) {
    this.leaseMs = deps.leaseMs ?? 10_000;
  }

  /** Modules that create debts the ledger does not show yet (trading's unpaid fees) register here. */
  addObligations(source: ObligationSource): void {
    this.obligations.push(source);
  }

  get reserves(): LedgerReserves {
    return this.deps.submissions.reserves;
  }

  /** The account on the validated ledger (not activated: balance 0). */
  async account(address: string): Promise<AccountState> {
    try {
      const info = await this.deps.client.request({
        command: 'account_info',
        account: address,
        ledger_index: 'validated',
      });
      const data = info.result.account_data;
      // Used elsewhere since we last signed? Our next sequence catches up before we sign again.
      await this.deps.submissions.sawSequence(address, data.Sequence);
      return {
        activated: true,
        balance: BigInt(data.Balance),
        ownerCount: data.OwnerCount,
        sequence: data.Sequence,
      };
    } catch (err) {
      if (
        err instanceof RippledError &&
        (err.data as { error?: string } | undefined)?.error === 'actNotFound'
      )
        return { activated: false, balance: 0n, ownerCount: 0, sequence: 0 };
      throw err;
    }
  }

  private async owed(address: string): Promise<Obligations> {
    const all = await Promise.all(this.obligations.map((o) => o(address)));
    const tokens = new Map<string, Decimal>();
    let drops = 0n;
    for (const o of all) {
      drops += o.drops;
      for (const [k, v] of o.tokens ?? []) tokens.set(k, (tokens.get(k) ?? new Decimal(0)).plus(v));
    }
    return { drops, tokens };
  }

  /** What the wallet owes in issued tokens (by `currency|issuer`, the ledger code), not yet paid. */
  async owedTokens(address: string): Promise<Map<string, Decimal>> {
    return (await this.owed(address)).tokens ?? new Map();
  }

  /** XRP the wallet's transactions in flight may take plus what it owes, in drops. */
  async committedXrp(address: string): Promise<bigint> {
    const [inFlight, owed] = await Promise.all([
      this.deps.submissions.inFlightXrp(address),
      this.owed(address),
    ]);
    return inFlight + owed.drops;
  }

  /**
   * The wallet's XRP for an action: available = balance − reserve − in flight − owed; refuses with
   * 400 'Insufficient balance: you have X XRP available, this needs Y XRP.' when the action needs
   * more. Read in this order (committed first, then the ledger), so a transaction validating
   * in between is counted twice rather than not at all.
   */
  async requireXrp(address: string, action: XrpAction): Promise<XrpCheck> {
    const [inFlight, owed] = await Promise.all([
      this.deps.submissions.inFlightXrp(address),
      this.owed(address),
    ]);
    const state = await this.account(address);
    const reserves = this.reserves;
    const needed = xrpNeeded(action, reserves);
    // Network fees alone may come out of the reserve (rippled takes a fee while the balance covers
    // it): an action that moves no XRP and creates nothing — a freeze, a blackhole, removing a trust
    // line, which gives a reserve back — needs only the fee from the balance.
    const feeOnly = !action.amount && !action.platformFee && !action.newObjects;
    const left = feeOnly
      ? state.balance - inFlight - owed.drops
      : availableXrp(state.balance, state.ownerCount, reserves) - inFlight - owed.drops;
    const available = state.activated && left > 0n ? left : 0n;
    if (needed > available) {
      const networkFees = BigInt(action.transactions ?? 0) * reserves.baseFee;
      const newReserves = BigInt(action.newObjects ?? 0) * reserves.reserveIncrement;
      throw badRequest(insufficientXrpMessage(available, needed), {
        asset: 'XRP',
        available: dropsToXrp(available),
        needed: dropsToXrp(needed),
        breakdown: {
          amount: dropsToXrp(action.amount ?? 0n),
          platformFee: dropsToXrp(action.platformFee ?? 0n),
          networkFees: dropsToXrp(networkFees),
          reserves: dropsToXrp(newReserves),
        },
        ...(state.activated ? {} : { activated: false }),
      });
    }
    return { available, needed };
  }

  /**
   * The wallet's balance of an issued asset on the validated ledger, less what it owes in it;
   * refuses with 400 'Insufficient balance: you have X T available, this needs Y T.' when `needed`
   * is more. Answers the available amount.
   */
  async requireToken(
    address: string,
    asset: { currency: string; issuer: string },
    needed: DecimalValue,
    name: string,
  ): Promise<Decimal> {
    const owed = (await this.owed(address)).tokens?.get(tokenKey(asset.currency, asset.issuer));
    const held = await this.held(address, asset);
    const available = Decimal.max(held.minus(owed ?? 0), 0);
    const want = new Decimal(needed);
    if (want.gt(available)) {
      throw badRequest(insufficientTokenMessage(available, want, name), {
        asset: name,
        available: plainDecimal(available),
        needed: plainDecimal(want),
      });
    }
    return available;
  }

  /** The validated balance of one trust line (0 without the line). */
  async held(address: string, asset: { currency: string; issuer: string }): Promise<Decimal> {
    try {
      const res = await this.deps.client.request({
        command: 'account_lines',
        account: address,
        peer: asset.issuer,
        ledger_index: 'validated',
      });
      const line = res.result.lines.find((l) => l.currency === asset.currency);
      return new Decimal(line?.balance ?? 0);
    } catch (err) {
      if (
        err instanceof RippledError &&
        (err.data as { error?: string } | undefined)?.error === 'actNotFound'
      )
        return new Decimal(0);
      throw err;
    }
  }

  /**
   * Runs `fn` (the check and the signing of one action) holding the account's lease: in this
   * process one at a time per account, across instances through a row in `funds_locks`.
   */
  async withAccount<T>(address: string, fn: () => Promise<T>): Promise<T> {
    const prev = this.chains.get(address) ?? Promise.resolve();
    const run = async () => {
      await this.lease(address);
      try {
        return await fn();
      } finally {
        await this.release(address).catch(() => undefined);
      }
    };
    const next = prev.then(run, run);
    const settled = next.catch(() => {});
    this.chains.set(address, settled);
    void settled.then(() => {
      if (this.chains.get(address) === settled) this.chains.delete(address);
    });
    return next;
  }

  private async lease(address: string): Promise<void> {
    // A holder that died leaves its lease to run out: wait past that, then give up.
    const deadline = Date.now() + 2 * this.leaseMs;
    for (;;) {
      if (await this.claim(address)) return;
      if (Date.now() > deadline) throw conflict('This wallet is busy with another action. Please try again.');
      await new Promise((r) => setTimeout(r, LEASE_POLL_MS));
    }
  }

  /**
   * Takes the leases asked for in one turn in one statement (issue 40's hot launch: a burst of buys,
   * one wallet each, took one insert per lease, twice per buy). Each answers whether it got its
   * account's lease: free, or its holder's run out. An account asked twice in one turn cannot be
   * (withAccount chains an account's callers in this process); if it were, the first one asks.
   */
  private readonly claim = batchedCall(async (addresses: string[]): Promise<boolean[]> => {
    const unique = [...new Set(addresses)];
    const values = unique.map(
      (a) => sql`(${a}, ${this.owner}, now() + make_interval(secs => ${this.leaseMs / 1000}))`,
    );
    const res = await this.deps.db.execute(sql`
      insert into ${fundsLocks} (account, owner, expires_at)
      values ${sql.join(values, sql`, `)}
      on conflict (account) do update set owner = excluded.owner, expires_at = excluded.expires_at
        where ${fundsLocks.expiresAt} < now()
      returning account`);
    const got = new Set(rowsOf<{ account: string }>(res).map((r) => r.account));
    const asked = new Set<string>();
    return addresses.map((a) => {
      const first = !asked.has(a);
      asked.add(a);
      return first && got.has(a);
    });
  });

  /** Gives back the leases released in one turn in one statement (only this instance's own). */
  private readonly release = batchedWrite(async (addresses: string[]) => {
    await this.deps.db
      .delete(fundsLocks)
      .where(and(inArray(fundsLocks.account, [...new Set(addresses)]), eq(fundsLocks.owner, this.owner)));
  });
}
