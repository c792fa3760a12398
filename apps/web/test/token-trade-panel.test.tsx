import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { TokenTradePanel } from '../src/app/token-trade-panel';
import { stubFetch, withProviders } from './support';

// A visitor's trade panel on the token page: a line and a button, the login box only once asked
// for, so its demo form's chunk (react-hook-form, zod) is not part of a cold token page (issue 40).

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const token = { issuer_address: 'rPEPPER7kfTD9w2To4CQk6UCfuHM9c6GDY', currency: 'SPRW', ticker: 'SPRW' };

describe('TokenTradePanel for a visitor', () => {
  it('offers a log-in button and shows the login box with its demo form only after it is pressed', async () => {
    const { calls } = stubFetch((path) => {
      if (path === '/api/session') return { body: { user: null } };
      if (path === '/api/auth/methods')
        return {
          body: {
            demo: { enabled: true },
            telegram: { enabled: false, botUsername: null },
            google: { enabled: false, clientId: null },
          },
        };
      return undefined;
    });
    render(withProviders(<TokenTradePanel token={token} />, '/token/x/SPRW'));
    expect(await screen.findByText('Log in to buy or sell SPRW here.')).toBeTruthy();
    const button = screen.getByRole('button', { name: 'Log in to trade' });
    expect(screen.queryByText('Log in to launch and trade')).toBeNull();
    // Nothing of the login box was asked for yet: not even its sign-in methods.
    expect(calls).not.toContain('/api/auth/methods');

    fireEvent.click(button);
    expect(await screen.findByText('Log in to launch and trade')).toBeTruthy();
    expect(await screen.findByLabelText('Demo account (embedded ledger)')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Log in to trade' })).toBeNull();
  });
});
