import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { VAULT_LOCK_MINUTES_DEFAULT, VAULT_MIN_ITERATIONS } from '@ledgerpad/shared';
import {
  calibrateIterations,
  open,
  seal,
  vaultStore,
  WrongPassphraseError,
  type VaultSecret,
} from '../src/lib/signer/vault';
import { isUnlocked, lockAll, setLockMinutes, touch, unlock } from '../src/lib/signer/lock';

// The browser vault with the browser's own primitives (WebCrypto's PBKDF2 and AES-GCM; IndexedDB
// from fake-indexeddb, an in-memory implementation of the same API): what is sealed opens with the
// passphrase only, with the round count stored in the record, and unlocked wallets lock after the
// chosen minutes without activity.

const ADDRESS = 'rPT1Sjq2YGrBMTttX4GZHjKu9dyfzbpAYe';
const SECRET: VaultSecret = { kind: 'seed', seed: 'sEdTM1uX8pu2do5XvTnutH6HsouMaM2', algorithm: 'ed25519' };
const PASS = 'correct horse battery';

afterEach(() => {
  lockAll();
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('sealing a browser wallet', () => {
  it('opens with its passphrase and gives back exactly what was sealed', async () => {
    const record = await seal(ADDRESS, 'ED01', SECRET, PASS, VAULT_MIN_ITERATIONS);
    expect(record.ciphertext).not.toContain(SECRET.kind === 'seed' ? SECRET.seed : '');
    expect(JSON.stringify(record)).not.toContain('sEdTM1uX8pu2do5XvTnutH6HsouMaM2');
    expect(await open(record, PASS)).toEqual(SECRET);
  });

  it('refuses a wrong passphrase, and a ciphertext moved onto another address', async () => {
    const record = await seal(ADDRESS, 'ED01', SECRET, PASS, VAULT_MIN_ITERATIONS);
    await expect(open(record, 'correct horse battery!')).rejects.toBeInstanceOf(WrongPassphraseError);
    await expect(
      open({ ...record, address: 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh' }, PASS),
    ).rejects.toBeInstanceOf(WrongPassphraseError);
  });

  it(
    'stores its PBKDF2 round count (at least 600,000) and derives with exactly that count',
    { timeout: 60_000 },
    async () => {
      // A fast device: the calibration asks for more than the minimum, never less.
      expect(await calibrateIterations(1, VAULT_MIN_ITERATIONS, 10_000)).toBe(VAULT_MIN_ITERATIONS);
      await expect(seal(ADDRESS, 'ED01', SECRET, PASS, VAULT_MIN_ITERATIONS - 1)).rejects.toThrow();
      const record = await seal(ADDRESS, 'ED01', SECRET, PASS, 700_000);
      expect(record.kdf).toMatchObject({ name: 'PBKDF2', hash: 'SHA-256', iterations: 700_000 });
      const derive = vi.spyOn(crypto.subtle, 'deriveKey');
      expect(await open(record, PASS)).toEqual(SECRET);
      expect((derive.mock.calls[0]![0] as Pbkdf2Params).iterations).toBe(700_000);
      // The count is part of the key: the record with another count written in no longer opens,
      // and one below the minimum is not even tried.
      await expect(
        open({ ...record, kdf: { ...record.kdf, iterations: 700_001 } }, PASS),
      ).rejects.toBeInstanceOf(WrongPassphraseError);
      derive.mockClear();
      await expect(
        open({ ...record, kdf: { ...record.kdf, iterations: 1000 } }, PASS),
      ).rejects.toBeInstanceOf(WrongPassphraseError);
      expect(derive).not.toHaveBeenCalled();
    },
  );

  it('calibrates to about the target time on this machine', async () => {
    const iterations = await calibrateIterations();
    expect(iterations).toBeGreaterThanOrEqual(VAULT_MIN_ITERATIONS);
    expect(iterations % 10_000).toBe(0);
  });
});

describe('locking', () => {
  it('locks after the chosen minutes without activity, and activity keeps it unlocked', async () => {
    await vaultStore.put(await seal(ADDRESS, 'ED01', SECRET, PASS, VAULT_MIN_ITERATIONS));
    await expect(unlock(ADDRESS, 'nope nope nope')).rejects.toBeInstanceOf(WrongPassphraseError);
    expect(isUnlocked(ADDRESS)).toBe(false);
    // Only the lock's timer is faked (IndexedDB keeps its own scheduling).
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    await unlock(ADDRESS, PASS);
    expect(isUnlocked(ADDRESS)).toBe(true);
    // 14 minutes idle, then a click: the 15 minutes count again from the click.
    vi.advanceTimersByTime((VAULT_LOCK_MINUTES_DEFAULT - 1) * 60_000);
    expect(isUnlocked(ADDRESS)).toBe(true);
    touch();
    vi.advanceTimersByTime((VAULT_LOCK_MINUTES_DEFAULT - 1) * 60_000);
    expect(isUnlocked(ADDRESS)).toBe(true);
    vi.advanceTimersByTime(60_000);
    expect(isUnlocked(ADDRESS)).toBe(false);
  }, 60_000);

  it('honours a shorter setting, and locks everything at once (sign-out)', async () => {
    await vaultStore.put(await seal(ADDRESS, 'ED01', SECRET, PASS, VAULT_MIN_ITERATIONS));
    // Only the lock's timer is faked (IndexedDB keeps its own scheduling).
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    setLockMinutes(5);
    await unlock(ADDRESS, PASS);
    vi.advanceTimersByTime(5 * 60_000 - 1);
    expect(isUnlocked(ADDRESS)).toBe(true);
    vi.advanceTimersByTime(1);
    expect(isUnlocked(ADDRESS)).toBe(false);
    await unlock(ADDRESS, PASS);
    lockAll();
    expect(isUnlocked(ADDRESS)).toBe(false);
    setLockMinutes(VAULT_LOCK_MINUTES_DEFAULT);
  }, 60_000);
});
