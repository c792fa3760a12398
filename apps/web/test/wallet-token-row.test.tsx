import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { WalletToken } from '@ledgerpad/shared';
import { TokenRow } from '../src/features/wallets/wallet-card';

// A wallet's token on the Wallets page (issue 39: one number format): the balance at 6 decimals at
// most, rounded down ('110,652.147013286' was shown whole), every digit in the tooltip, and the
// exact ledger balance from 'Copy exact balance' in the trust line's menu.

const ISSUER = 'rPT1Sjq2YGrBMTttX4GZHjKu9dyfzbpAYe';
const TOKEN: WalletToken = {
  currency: 'NEWC',
  currencyCode: 'NEWC',
  issuer: ISSUER,
  realIssuer: ISSUER,
  value: '110652.147013286',
};

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('a token of a wallet', () => {
  it('shows at most 6 decimals, the full balance in the tooltip, and copies the exact balance', async () => {
    const written: string[] = [];
    vi.stubGlobal('isSecureContext', true);
    vi.stubGlobal('navigator', {
      ...navigator,
      clipboard: { writeText: (text: string) => Promise.resolve(void written.push(text)) },
    });
    render(
      <ul>
        <TokenRow token={TOKEN} onSetLimit={() => {}} onRemove={() => {}} />
      </ul>,
    );
    const value = document.querySelector('.token-value')!;
    expect(value.textContent).toBe('110,652.147013');
    expect(value.getAttribute('title')).toBe('110,652.147013286');

    // Radix opens its menu from the keyboard in jsdom (no pointer events).
    fireEvent.keyDown(screen.getByRole('button', { name: 'Trust line actions for NEWC' }), { key: 'Enter' });
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Copy exact balance' }));
    await waitFor(() => expect(written).toEqual(['110652.147013286']));
  });
});
