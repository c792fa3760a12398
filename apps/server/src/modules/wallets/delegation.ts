import { randomUUID } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import { RippledError, Wallet } from 'xrpl';
import {
  DELEGATED_PERMISSIONS,
  DELEGATION_MESSAGES,
  SELF_CUSTODY_MESSAGES,
  serverSigns,
  type DelegatedPermission,
  type IntentRequired,
  type WalletDelegation,
  type WalletKind,
} from '@ledgerpad/shared';
import type { Db } from '../../db/client';
import type { Keyring } from '../../keys/envelope';
import type { XrplConnection } from '../../ledger/connection';
import { ledgerFailure } from '../../ledger/errors';
import type { Funds } from '../../ledger/funds';
import type { SubmissionService } from '../../ledger/submission-service';
import { badRequest, serviceDisabled } from '../../lib/errors';
import { PLATFORM_ROLES, recordGenesis } from '../../platform/accounts';
import { insertWallet, platformWallet, type WalletRow } from '../../platform/custody';
import { wallets } from '../../platform/custody-schema';
import type { IntentFinisher, IntentService } from '../../platform/intents';
import { users } from '../users/schema';
import type { WalletService } from './service';

// Delegated trading of self-custody wallets (issue 38, docs/self-custody.md "Delegated trading").
// Each user has one Ledgerpad delegate account: a custodial wallet row with role 'delegate' (hidden
// from every wallet list, like a deploy's staged wallets), made once, funded by the platform. A
// self-custody wallet enables delegation by signing a DelegateSet (Authorize = that account,
// Permissions = OfferCreate, OfferCancel, TrustSet — never Payment) and revokes it by signing an
// empty one. The state is read from the ledger (the Delegate entry), never from our records.

export const DELEGATE_ROLE = 'delegate';

/** XRP the platform gives a new delegate account above the base reserve: its network fees. */
const DELEGATE_FEE_FLOAT_DROPS = 1_000_000n;

export interface DelegationDeps {
  db: Db;
  keyring: Keyring;
  connection: XrplConnection;
  submissions: SubmissionService;
  funds: Funds;
  intents?: IntentService;
  wallets: WalletService;
  network: 'standalone' | 'testnet' | 'mainnet';
}

/** Platform fees a wallet's delegated trades owe (decimal strings), supplied by the trading module. */
export type OwedFees = (address: string) => Promise<{ xrp: string; rlusd: string }>;

const NOTHING_OWED = async () => ({ xrp: '0', rlusd: '0' });

export class Delegations {
  private owedFees: OwedFees = NOTHING_OWED;

  constructor(private readonly deps: DelegationDeps) {}

  /** The trading module tells what a wallet owes (it keeps the trade records). */
  setOwedFees(source: OwedFees): void {
    this.owedFees = source;
  }

  /** The user's delegate account, if it was ever made. */
  async delegateOf(userId: number): Promise<WalletRow | undefined> {
    const [row] = await this.deps.db
      .select()
      .from(wallets)
      .where(and(eq(wallets.userId, userId), eq(wallets.role, DELEGATE_ROLE), isNull(wallets.archivedAt)))
      .orderBy(wallets.id)
      .limit(1);
    return row;
  }

  /** The user's delegate account, made once (under the user's row lock) and funded by the platform. */
  async ensureDelegate(userId: number): Promise<WalletRow> {
    const row =
      (await this.delegateOf(userId)) ??
      (await this.deps.db.transaction(async (tx) => {
        await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
        const [found] = await tx
          .select()
          .from(wallets)
          .where(
            and(eq(wallets.userId, userId), eq(wallets.role, DELEGATE_ROLE), isNull(wallets.archivedAt)),
          );
        if (found) return found;
        return insertWallet(tx as unknown as Db, this.deps.keyring, {
          userId,
          role: DELEGATE_ROLE,
          name: 'Ledgerpad delegate',
          wallet: Wallet.generate(),
        });
      }));
    await this.fund(row);
    return row;
  }

  /**
   * The delegate's reserve and fees, from the platform: the genesis account on the stand-alone
   * ledger, the service wallet elsewhere (an operator keeps it funded). Once: the payment's intent
   * key is the delegate's address.
   */
  private async fund(row: WalletRow): Promise<void> {
    const { submissions, connection, db, keyring } = this.deps;
    try {
      await connection.client.request({
        command: 'account_info',
        account: row.address,
        ledger_index: 'current',
      });
      return;
    } catch (err) {
      if (!(err instanceof RippledError) || (err.data as { error?: string }).error !== 'actNotFound')
        throw err;
    }
    const funder =
      this.deps.network === 'standalone'
        ? await recordGenesis(db, keyring)
        : await platformWallet(db, PLATFORM_ROLES.service);
    if (!funder) throw serviceDisabled(DELEGATION_MESSAGES.delegateUnfunded);
    const amount = submissions.reserves.reserveBase + DELEGATE_FEE_FLOAT_DROPS;
    const out = await submissions.submit({
      intentKey: `delegate-fund:${row.address}`,
      account: funder.address,
      tx: { TransactionType: 'Payment', Destination: row.address, Amount: amount.toString() },
      purpose: 'delegate-fund',
    });
    if (out.status !== 'success') throw serviceDisabled(DELEGATION_MESSAGES.delegateUnfunded);
  }

  /** The permissions `account`'s Delegate entry gives `delegate` on the validated ledger (none: []). */
  async permissions(account: string, delegate: string): Promise<string[]> {
    try {
      const res = await this.deps.connection.client.request({
        command: 'ledger_entry',
        delegate: { account, authorize: delegate },
        ledger_index: 'validated',
      } as never);
      const node = (
        res as {
          result: { node?: { Permissions?: Array<{ Permission: { PermissionValue: string | number } }> } };
        }
      ).result.node;
      return (node?.Permissions ?? []).map((p) => String(p.Permission.PermissionValue));
    } catch (err) {
      if (err instanceof RippledError && (err.data as { error?: string }).error === 'entryNotFound')
        return [];
      throw err;
    }
  }

  /** A self-custody wallet's delegation as the ledger holds it; null for custodial wallets or no delegate yet. */
  async stateOf(userId: number, row: WalletRow): Promise<WalletDelegation | null> {
    if (serverSigns(row.kind as WalletKind)) return null;
    const delegate = await this.delegateOf(userId);
    if (!delegate) return null;
    const permissions = await this.permissions(row.address, delegate.address);
    return {
      delegate: delegate.address,
      enabled: DELEGATED_PERMISSIONS.every((p) => permissions.includes(p)),
      permissions,
      fees_owed: await this.owedFees(row.address),
    };
  }

  /**
   * The delegate that may send `permission` for this self-custody wallet now (read from the
   * validated ledger), or undefined: then the action is prepared as an intent for the wallet to sign.
   */
  async activeDelegate(
    userId: number,
    row: WalletRow,
    permission: DelegatedPermission,
  ): Promise<string | undefined> {
    if (serverSigns(row.kind as WalletKind)) return undefined;
    const delegate = await this.delegateOf(userId);
    if (!delegate) return undefined;
    const permissions = await this.permissions(row.address, delegate.address);
    return permissions.includes(permission) ? delegate.address : undefined;
  }

  /** The fees a wallet owes (what stateOf shows). */
  owed(address: string): Promise<{ xrp: string; rlusd: string }> {
    return this.owedFees(address);
  }

  /** POST /api/wallets/:id/delegation: the DelegateSet the wallet signs to turn delegation on. */
  async enable(userId: number, walletId: number, idempotencyKey?: string): Promise<IntentRequired> {
    const row = await this.selfCustody(userId, walletId);
    const intentKey = `delegate-set:${userId}:${idempotencyKey ?? randomUUID()}`;
    const intents = this.intents;
    const known = await intents.known(intentKey);
    if (known) return { status: 'sign', intent: known };
    const delegate = await this.ensureDelegate(userId);
    const held = await this.permissions(row.address, delegate.address);
    if (DELEGATED_PERMISSIONS.every((p) => held.includes(p)) && held.length === DELEGATED_PERMISSIONS.length)
      throw badRequest(DELEGATION_MESSAGES.alreadyEnabled);
    // The entry is one owner object on the wallet's reserve (none more when it replaces one).
    await this.deps.funds.requireXrp(row.address, { transactions: 1, newObjects: held.length ? 0 : 1 });
    return this.prepare(userId, row, intentKey, delegate.address, [...DELEGATED_PERMISSIONS]);
  }

  /** DELETE /api/wallets/:id/delegation: the empty DelegateSet that deletes the entry (one click). */
  async revoke(userId: number, walletId: number, idempotencyKey?: string): Promise<IntentRequired> {
    const row = await this.selfCustody(userId, walletId);
    const intentKey = `delegate-revoke:${userId}:${idempotencyKey ?? randomUUID()}`;
    const known = await this.intents.known(intentKey);
    if (known) return { status: 'sign', intent: known };
    const delegate = await this.delegateOf(userId);
    if (!delegate || (await this.permissions(row.address, delegate.address)).length === 0)
      throw badRequest(DELEGATION_MESSAGES.notEnabled);
    await this.deps.funds.requireXrp(row.address, { transactions: 1 });
    return this.prepare(userId, row, intentKey, delegate.address, []);
  }

  private async prepare(
    userId: number,
    row: WalletRow,
    intentKey: string,
    delegate: string,
    permissions: string[],
  ): Promise<IntentRequired> {
    const intent = await this.intents.prepare({
      userId,
      wallet: row,
      purpose: 'delegate-set',
      intentKey,
      txs: [
        {
          tx: {
            TransactionType: 'DelegateSet',
            Authorize: delegate,
            Permissions: permissions.map((p) => ({ Permission: { PermissionValue: p } })),
          },
          purpose: 'delegate-set',
        },
      ],
      context: { delegate },
    });
    return { status: 'sign', intent };
  }

  /** The finisher of DelegateSet intents: the delegation as the ledger holds it afterwards. */
  finisher(): IntentFinisher {
    return {
      finish: async (intent, [outcome]) => {
        if (!outcome || outcome.status !== 'success') throw ledgerFailure(outcome ?? { result: 'expired' });
        const row = await this.deps.wallets.owned(intent.userId, intent.walletId);
        return this.stateOf(intent.userId, row);
      },
    };
  }

  private async selfCustody(userId: number, walletId: number): Promise<WalletRow> {
    const row = await this.deps.wallets.owned(userId, walletId);
    if (serverSigns(row.kind as WalletKind)) throw badRequest(DELEGATION_MESSAGES.custodial);
    return row;
  }

  private get intents(): IntentService {
    if (!this.deps.intents) throw badRequest(SELF_CUSTODY_MESSAGES.notSupported);
    return this.deps.intents;
  }
}
