import { VAULT_LOCK_MINUTES_CHOICES, VAULT_LOCK_MINUTES_DEFAULT } from '@ledgerpad/shared';
import { openWithKey, recordKey, vaultStore, type VaultSecret } from './vault';

// Which browser wallets are unlocked, in this tab's memory only: the passphrase-derived AES key
// (non-extractable), never the seed — the seed is decrypted for one signature and dropped. Every
// wallet locks after the chosen minutes without user activity, and all lock at sign-out.

const SETTING = 'ledgerpad.vault.lockMinutes';

type Listener = () => void;

interface PendingUnlock {
  address: string;
  name: string;
  resolve: () => void;
  reject: (err: Error) => void;
}

export class SigningCancelledError extends Error {
  constructor() {
    super('Signing was cancelled.');
    this.name = 'SigningCancelledError';
  }
}

const keys = new Map<string, CryptoKey>();
const listeners = new Set<Listener>();
let pending: PendingUnlock | null = null;
let timer: ReturnType<typeof setTimeout> | undefined;
let version = 0;

function emit(): void {
  version += 1;
  for (const l of listeners) l();
}

export function subscribe(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Changes whenever a wallet locks or unlocks or an unlock is asked for (useSyncExternalStore). */
export const snapshot = (): number => version;

export function lockMinutes(): number {
  try {
    const raw = Number(localStorage.getItem(SETTING));
    if ((VAULT_LOCK_MINUTES_CHOICES as readonly number[]).includes(raw)) return raw;
  } catch {
    // no storage: the default
  }
  return VAULT_LOCK_MINUTES_DEFAULT;
}

export function setLockMinutes(minutes: number): void {
  try {
    localStorage.setItem(SETTING, String(minutes));
  } catch {
    // not kept across reloads then
  }
  touch();
  emit();
}

/** User activity: the inactivity lock starts counting again. */
export function touch(): void {
  if (timer !== undefined) clearTimeout(timer);
  timer = undefined;
  if (keys.size === 0) return;
  timer = setTimeout(lockAll, lockMinutes() * 60_000);
}

export const isUnlocked = (address: string): boolean => keys.has(address);

/** Locks every browser wallet (inactivity, sign-out, the Lock button). */
export function lockAll(): void {
  if (timer !== undefined) clearTimeout(timer);
  timer = undefined;
  if (keys.size === 0 && !pending) return;
  keys.clear();
  if (pending) {
    pending.reject(new SigningCancelledError());
    pending = null;
  }
  emit();
}

export function lock(address: string): void {
  if (keys.delete(address)) emit();
}

/** Unlocks a wallet with its passphrase (a wrong one throws WrongPassphraseError). */
export async function unlock(address: string, passphrase: string): Promise<void> {
  const record = await vaultStore.get(address);
  if (!record) throw new Error('This browser does not hold the key of this wallet.');
  const key = await recordKey(record, passphrase);
  await openWithKey(record, key); // proves the passphrase; the secret is dropped at once
  keys.set(address, key);
  touch();
  emit();
}

/** Keeps an unlocked key (a wallet just created or imported with its passphrase). */
export function keepUnlocked(address: string, key: CryptoKey): void {
  keys.set(address, key);
  touch();
  emit();
}

/** The unlock the screen should ask for now (the UnlockPrompt shows it), if any. */
export const pendingUnlock = (): { address: string; name: string } | null =>
  pending ? { address: pending.address, name: pending.name } : null;

/** Asks the user for the passphrase (the UnlockPrompt answers), unless the wallet is unlocked. */
export function requestUnlock(address: string, name: string): Promise<void> {
  if (keys.has(address)) return Promise.resolve();
  pending?.reject(new SigningCancelledError());
  return new Promise<void>((resolve, reject) => {
    pending = { address, name, resolve, reject };
    emit();
  });
}

/** The prompt was answered: the wallet is unlocked now. */
export function unlockAnswered(): void {
  const p = pending;
  pending = null;
  if (p && keys.has(p.address)) p.resolve();
  else p?.reject(new SigningCancelledError());
  emit();
}

export function unlockCancelled(): void {
  const p = pending;
  pending = null;
  p?.reject(new SigningCancelledError());
  emit();
}

/** The secret of an unlocked wallet, for one signature or an export (the caller drops it). */
export async function withSecret<T>(
  address: string,
  read: (secret: VaultSecret) => T | Promise<T>,
): Promise<T> {
  const key = keys.get(address);
  const record = await vaultStore.get(address);
  if (!key || !record) throw new SigningCancelledError();
  touch();
  return read(await openWithKey(record, key));
}
