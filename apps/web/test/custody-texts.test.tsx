import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { User } from '@ledgerpad/shared';
import { WalletKindBadge } from '../src/components/wallet-kind-badge';
import { TermsPage } from '../src/features/legal/terms-page';
import { ImportWalletModal } from '../src/features/wallets/import-wallet-modal';
import { walletLabel } from '../src/lib/wallet-balances';
import { stubFetch, withProviders } from './support';

// Issue 38, "Texts tell the truth": the Terms, the Import dialog and every wallet's label say which
// wallets the server can sign for (custodial) and which it cannot (browser key, wallet app). The
// Terms once said the platform stores no private keys while the Import dialog stored them.

const USER: User = {
  id: 7,
  username: 'trader',
  first_name: null,
  photo_url: null,
  email: null,
  telegram_id: null,
  google_id: null,
  created_at: '2026-01-01T00:00:00Z',
  isAdmin: false,
};
const ADDRESS = 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh';

beforeEach(() => {
  stubFetch((path) => {
    if (path === '/api/session') return { body: { user: USER } };
    if (path === '/api/csrf-token') return { body: { token: 'csrf' } };
    return undefined;
  });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const text = (el: Element | null) => (el?.textContent ?? '').replace(/\s+/g, ' ');

describe('who holds the keys, in every text', () => {
  it('the Terms: no private keys stored for self-custody wallets, custodial keys stored encrypted and signed for', () => {
    render(withProviders(<TermsPage />, '/terms'));
    const heading = screen.getByRole('heading', { name: 'Who holds your keys' });
    const section = `${text(heading.nextElementSibling)} ${text(heading.nextElementSibling!.nextElementSibling)}`;
    expect(section).toContain(
      'For self-custody wallets the platform is non-custodial and does not store private keys',
    );
    expect(section).toContain('we cannot sign for those wallets');
    expect(section).toContain(
      'has its key stored encrypted on our server, which signs the transactions you ask for',
    );
    // Said once, and only of self-custody wallets: nowhere else do the Terms claim no keys at all.
    const page = text(document.body);
    expect(page.match(/non-custodial/g)).toHaveLength(1);
    expect(page).not.toMatch(/stores? no private keys/);
  });

  it('the Import dialog: the choice of where the key is kept, each with its sentence', () => {
    render(
      withProviders(
        <ImportWalletModal onClose={() => {}} onImported={() => {}} onAlreadyExists={() => {}} />,
      ),
    );
    const note = () => screen.getByTestId('custody-note').textContent;
    expect((screen.getByLabelText('On the server') as HTMLInputElement).checked).toBe(true);
    expect(note()).toBe(
      'Custodial: the key is stored encrypted on the Ledgerpad server, which signs your transactions for you.',
    );
    fireEvent.click(screen.getByLabelText('Only in this browser'));
    expect(note()).toBe(
      'Self-custody: the key stays in this browser, encrypted with your passphrase. It is never sent to the server; you sign each transaction here.',
    );
  });

  it('every wallet is labelled with who signs for it: the badge and the pickers’ label', () => {
    render(
      <>
        <WalletKindBadge kind="custodial" />
        <WalletKindBadge kind="browser" />
        <WalletKindBadge kind="external" app="gemwallet" />
        <WalletKindBadge />
      </>,
    );
    const badges = screen.getAllByTestId('wallet-kind');
    expect(badges.map((b) => b.textContent)).toEqual(['Custodial', 'Browser key', 'GemWallet', 'Custodial']);
    expect(badges.map((b) => b.getAttribute('title'))).toEqual([
      'Custodial: its key is stored encrypted on this server, which signs for it.',
      'Browser key: its key is encrypted in this browser only; the server cannot sign for it.',
      'Wallet app: its key stays in the app; the server cannot sign for it.',
      'Custodial: its key is stored encrypted on this server, which signs for it.',
    ]);
    expect(walletLabel({ wallet_address: ADDRESS, wallet_name: 'Pocket', kind: 'browser' })).toBe(
      'Pocket (rHb9CJ…tyTh) · Browser key',
    );
    expect(walletLabel({ wallet_address: ADDRESS, kind: 'external', wallet_app: 'crossmark' })).toBe(
      'rHb9CJ…tyTh · Crossmark',
    );
    expect(walletLabel({ wallet_address: ADDRESS, wallet_name: 'Main', kind: 'custodial' })).toBe(
      'Main (rHb9CJ…tyTh) · Custodial',
    );
  });
});
