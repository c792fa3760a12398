import { and, eq, inArray, isNull } from 'drizzle-orm';
import { Wallet } from 'xrpl';
import { batchedRead } from '../db/batched';
import type { Db } from '../db/client';
import type { Keyring, SealedSecret } from '../keys/envelope';
import type { SignerSource } from '../ledger/submission-service';
import { walletFromSeed } from '../ledger/sign';
import { SELF_CUSTODY_MESSAGES } from '@ledgerpad/shared';
import { badRequest } from '../lib/errors';
import { wallets } from './custody-schema';

// Sealing and opening wallet secrets. Decrypted keys live only for the duration of one signature;
// nothing here logs, caches or returns a secret except createWallet's one-time seed.

export type WalletRow = typeof wallets.$inferSelect;

type WalletSecret =
  { kind: 'seed'; seed: string } | { kind: 'keypair'; publicKey: string; privateKey: string };

function secretOf(wallet: Wallet): WalletSecret {
  return wallet.seed
    ? { kind: 'seed', seed: wallet.seed }
    : { kind: 'keypair', publicKey: wallet.publicKey, privateKey: wallet.privateKey };
}

/** The wallet kinds (docs/self-custody.md): only a custodial wallet's key is on the server. */
export const WALLET_KIND = { custodial: 'custodial', browser: 'browser', external: 'external' } as const;

/** A custodial wallet's sealed secret; a self-custody wallet has none (its key never reaches us). */
export function sealedOf(row: WalletRow): SealedSecret {
  if (
    row.kind !== WALLET_KIND.custodial ||
    !row.secretCiphertext ||
    !row.secretNonce ||
    !row.dataKeyWrapped ||
    !row.dataKeyNonce ||
    !row.keyId
  )
    // Asked to sign for a wallet whose key is in the user's browser or wallet app: the action must
    // be prepared as an intent for the wallet to sign (docs/self-custody.md "Adding an action").
    // Actions that do not support self-custody wallets yet answer this sentence, not a 500.
    throw badRequest(SELF_CUSTODY_MESSAGES.notSupported, { walletKind: row.kind });
  return {
    ciphertext: row.secretCiphertext,
    nonce: row.secretNonce,
    wrappedKey: row.dataKeyWrapped,
    wrappedKeyNonce: row.dataKeyNonce,
    keyId: row.keyId,
  };
}

function sealedColumns(sealed: SealedSecret) {
  return {
    secretCiphertext: sealed.ciphertext,
    secretNonce: sealed.nonce,
    dataKeyWrapped: sealed.wrappedKey,
    dataKeyNonce: sealed.wrappedKeyNonce,
    keyId: sealed.keyId,
  };
}

export function sealWallet(keyring: Keyring, wallet: Wallet) {
  const secret = secretOf(wallet);
  return {
    secretKind: secret.kind,
    ...sealedColumns(keyring.seal(JSON.stringify(secret), wallet.classicAddress)),
  };
}

export function openWallet(keyring: Keyring, row: WalletRow): Wallet {
  const secret = JSON.parse(keyring.open(sealedOf(row), row.address)) as WalletSecret;
  const wallet =
    secret.kind === 'seed' ? walletFromSeed(secret.seed) : new Wallet(secret.publicKey, secret.privateKey);
  if (wallet.classicAddress !== row.address) throw new Error('Stored key does not match the wallet address');
  return wallet;
}

export interface NewWallet {
  userId: number | null;
  role?: string;
  name?: string | null;
  wallet: Wallet;
  /** The deploy job a staged wallet belongs to. */
  jobId?: string | null;
  /** The Idempotency-Key of the request that makes it (its retry finds it instead of making another). */
  requestKey?: string | null;
}

export interface NewSelfCustodyWallet {
  userId: number;
  name: string;
  address: string;
  publicKey: string;
  kind: 'browser' | 'external';
  walletApp: string | null;
}

/** A self-custody wallet: its address and public key only — no secret column is ever filled. */
export async function insertSelfCustodyWallet(db: Db, w: NewSelfCustodyWallet): Promise<WalletRow> {
  const [row] = await db
    .insert(wallets)
    .values({
      userId: w.userId,
      role: 'user',
      name: w.name,
      address: w.address,
      kind: w.kind,
      walletApp: w.walletApp,
      publicKey: w.publicKey,
    })
    .returning();
  return row!;
}

export async function insertWallet(db: Db, keyring: Keyring, w: NewWallet): Promise<WalletRow> {
  const [row] = await db
    .insert(wallets)
    .values({
      userId: w.userId,
      role: w.role ?? 'user',
      name: w.name ?? null,
      jobId: w.jobId ?? null,
      requestKey: w.requestKey ?? null,
      address: w.wallet.classicAddress,
      ...sealWallet(keyring, w.wallet),
    })
    .returning();
  return row!;
}

/** The platform's own wallet of a role (RLUSD issuer, fee, ...), if bootstrap recorded one. */
export async function platformWallet(db: Db, role: string): Promise<WalletRow | undefined> {
  const [row] = await db
    .select()
    .from(wallets)
    .where(and(eq(wallets.role, role), isNull(wallets.userId), isNull(wallets.archivedAt)));
  return row;
}

/** Signs for any account whose key the platform holds (archived wallets included: the key is kept). */
export function createSignerSource(db: Db, keyring: Keyring): SignerSource {
  // Each account's signing batch reads its key row: the batches of one turn (a burst of swaps, one
  // account each) read theirs in one statement (db/batched.ts).
  // A custodial record of the address wins over a self-custody one (two users may hold the same
  // address in different ways: one imported its seed here, the other keeps it in the browser).
  const rowOf = batchedRead(async (accounts: string[]) => {
    const rows = await db
      .select()
      .from(wallets)
      .where(inArray(wallets.address, accounts))
      .orderBy(wallets.id);
    const by = new Map<string, WalletRow>();
    for (const row of rows) {
      const seen = by.get(row.address);
      if (!seen || (seen.kind !== WALLET_KIND.custodial && row.kind === WALLET_KIND.custodial))
        by.set(row.address, row);
    }
    return by;
  });
  return {
    async walletFor(account: string): Promise<Wallet> {
      const row = await rowOf(account);
      if (!row) throw new Error(`No key held for ${account}`);
      return openWallet(keyring, row);
    },
    async walletsFor(accounts: string[]): Promise<Map<string, Wallet>> {
      const out = new Map<string, Wallet>();
      const rows = await Promise.all([...new Set(accounts)].map((a) => rowOf(a)));
      // A self-custody account is left out: signing it is refused with its own sentence.
      for (const row of rows)
        if (row?.kind === WALLET_KIND.custodial) out.set(row.address, openWallet(keyring, row));
      return out;
    },
  };
}

/** Roles of the wallets a deploy stages before any XRP moves (kept for the admin refund tool). */
export const STAGED_ROLES = { issuer: 'deploy_issuer', hot: 'deploy_hot' } as const;

/**
 * The issuer and hot wallets of a deploy job, created on the first call and found again on every
 * later one (one wallet per job and role, by a unique index), so a step that runs twice after a
 * crash never makes a second pair.
 */
export async function stageDeployWallets(
  db: Db,
  keyring: Keyring,
  jobId: string,
  userId: number,
  ticker: string,
): Promise<{ issuer: WalletRow; hot: WalletRow }> {
  const find = async () => {
    const rows = await db.select().from(wallets).where(eq(wallets.jobId, jobId));
    return {
      issuer: rows.find((r) => r.role === STAGED_ROLES.issuer),
      hot: rows.find((r) => r.role === STAGED_ROLES.hot),
    };
  };
  const found = await find();
  for (const [kind, role] of Object.entries(STAGED_ROLES) as Array<['issuer' | 'hot', string]>) {
    if (found[kind]) continue;
    const wallet = Wallet.generate();
    const [row] = await db
      .insert(wallets)
      .values({
        userId,
        role,
        name: `${ticker} ${kind === 'issuer' ? 'issuer' : 'liquidity'}`,
        jobId,
        address: wallet.classicAddress,
        ...sealWallet(keyring, wallet),
      })
      .onConflictDoNothing()
      .returning();
    if (row) found[kind] = row;
  }
  const all = found.issuer && found.hot ? found : await find();
  if (!all.issuer || !all.hot) throw new Error(`Staged wallets of job ${jobId} are missing`);
  return { issuer: all.issuer, hot: all.hot };
}

/** A deploy's hot wallet joins its owner's wallets once the token is live. */
export async function adoptStagedWallet(db: Db, walletId: number, name: string): Promise<void> {
  await db
    .update(wallets)
    .set({ role: 'user', name })
    .where(and(eq(wallets.id, walletId), eq(wallets.role, STAGED_ROLES.hot)));
}
