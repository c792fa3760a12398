import 'fake-indexeddb/auto';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SELF_CUSTODY_MESSAGES, VAULT_MIN_ITERATIONS, type WalletSummary } from '@ledgerpad/shared';
import { ExportKeyModal } from '../src/features/wallets/export-key-modal';
import { seal, vaultStore } from '../src/lib/signer/vault';
import { stubFetch, withProviders } from './support';

// Issue 38: a browser wallet is exportable — after its passphrase, from this browser's vault, and
// nothing is sent anywhere (the page makes no request at all while it exports).

const ADDRESS = 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh';
const SEED = 'sEdTdqPXgy1zJyNhBVKyDaqSZ2f5PFc'; // a test seed made for this file; holds nothing
const PASS = 'correct horse battery';
const wallet = {
  id: 3,
  wallet_address: ADDRESS,
  wallet_name: 'Pocket',
  kind: 'browser',
  wallet_app: null,
  created_at: '',
} as unknown as WalletSummary;

let fetchMock: ReturnType<typeof stubFetch>['fn'];
beforeEach(() => {
  ({ fn: fetchMock } = stubFetch(() => undefined));
});
afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  await vaultStore.delete(ADDRESS);
});

/** The vault's key derivation (VAULT_MIN_ITERATIONS of PBKDF2) can take seconds on a loaded CI machine. */
const DERIVED = { timeout: 30_000 };

const submit = (passphrase: string) => {
  fireEvent.change(screen.getByLabelText('Passphrase'), { target: { value: passphrase } });
  fireEvent.click(screen.getByRole('button', { name: 'Show key' }));
};

describe('exporting a browser wallet', () => {
  it(
    'shows the seed after the passphrase, refuses a wrong one, sends nothing',
    { timeout: 60_000 },
    async () => {
      await vaultStore.put(
        await seal(ADDRESS, 'ED01', { kind: 'seed', seed: SEED }, PASS, VAULT_MIN_ITERATIONS),
      );
      render(withProviders(<ExportKeyModal wallet={wallet} onClose={() => {}} />));
      expect(screen.getByRole('dialog', { name: 'Export the key of Pocket' })).toBeTruthy();
      submit('not the passphrase');
      expect((await screen.findByRole('alert', {}, DERIVED)).textContent).toBe(
        SELF_CUSTODY_MESSAGES.wrongPassphrase,
      );
      expect(screen.queryByLabelText('Exported key')).toBeNull();
      submit(PASS);
      expect((await screen.findByLabelText('Exported key', {}, DERIVED)).textContent).toBe(SEED);
      expect(fetchMock).not.toHaveBeenCalled();
    },
  );

  it('says so when this browser does not hold the key', async () => {
    render(withProviders(<ExportKeyModal wallet={wallet} onClose={() => {}} />));
    submit(PASS);
    expect((await screen.findByRole('alert')).textContent).toBe(
      'This browser does not hold the key of this wallet.',
    );
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
