import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { BondingConfigView, BondingView } from '@ledgerpad/shared';
import { CurveFacts, DeployPage } from '../src/features/deploy/deploy-page';
import { BondingPanel } from '../src/features/token/bonding-panel';
import { stubFetch, withProviders } from './support';

// Curve launches on the web (docs/bonding-curve.md): the deploy form's launch choice and preview,
// and the token page's curve panel, with the server's own payload shapes.

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const curveConfig: BondingConfigView = {
  steps: 200,
  fine_steps: 6,
  virtual_xrp: '30',
  virtual_rlusd: '66',
  graduation_xrp: '85.00536',
  graduation_rlusd: '187.011792',
  start_price_xrp: '0.00000002806265',
  start_price_rlusd: '0.00000006173783',
  deposit_xrp: '7.3',
  deposit_xrp_rlusd_pair: '7.5',
  snipe_ledgers: 5,
  snipe_tokens: '10000000',
  anti_sniper_start_percent: '25',
  anti_sniper_window_seconds: 120,
};

const view = (patch: Partial<BondingView> = {}): BondingView => ({
  token_id: 7,
  status: 'active',
  quote: 'XRP',
  curve_address: 'rhpVmPnKCmSB3Fca3rjons5XEdkxcvVV3w',
  sold: '229516462.5',
  curve_supply: '793100000',
  percent: '28.93',
  raised: '272.11',
  target: '2836.88',
  price: '0.000001502814525',
  end_price: '0.0000136960056',
  market_cap: '1502.814525',
  market_cap_usd: '3306.19',
  launch_ledger: 120,
  snipe_until_ledger: 125,
  snipe_tokens: '10000000',
  steps: 200,
  amm_account: null,
  graduated_ledger: null,
  ...patch,
});

describe('the curve panel of the token page', () => {
  it('shows the progress to graduation with its figures', () => {
    render(<BondingPanel curve={view()} loading={false} failed={false} currentLedger={200} />);
    const bar = screen.getByRole('progressbar', { name: 'Progress to graduation' });
    expect(bar.getAttribute('aria-valuenow')).toBe('28.93');
    expect(screen.getByTestId('bonding-percent').textContent).toBe('28.93%');
    // Money in full (XRP to the drop), prices in the one format: 4 significant digits, 0.0ₙ.
    expect(screen.getByTestId('bonding-raised').textContent).toBe('272.11 / 2,836.88 XRP');
    expect(screen.getByText('229,516,462 / 793,100,000')).toBeTruthy();
    expect(screen.getByText('0.0₅1503 XRP').getAttribute('title')).toBe('0.000001502814525 XRP');
    // Past the anti-snipe window: no note.
    expect(screen.queryByRole('note')).toBeNull();
  });

  it('says how much is for sale per ledger during the anti-snipe window', () => {
    render(<BondingPanel curve={view()} loading={false} failed={false} currentLedger={122} />);
    expect(screen.getByRole('note').textContent).toBe(
      'Anti-snipe: until ledger 125 at most 10,000,000 tokens are for sale per ledger.',
    );
  });

  it('shows the pool the curve graduated into', () => {
    const account = 'r3TyPmVB2hthrgX7qSBUw1sYNJHssJz265';
    render(
      <BondingPanel
        curve={view({ status: 'graduated', percent: '100.00', amm_account: account })}
        loading={false}
        failed={false}
      />,
    );
    expect(screen.getByRole('heading', { name: 'Graduated to the AMM pool' })).toBeTruthy();
    expect(screen.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('100');
    expect(screen.getByText(account)).toBeTruthy();
    expect(screen.queryByText('Price now')).toBeNull();
  });

  it('has a loading and an error state', () => {
    const { rerender } = render(<BondingPanel curve={undefined} loading failed={false} />);
    expect(screen.getByText('Loading the curve…')).toBeTruthy();
    rerender(<BondingPanel curve={undefined} loading={false} failed />);
    expect(screen.getByText('The curve could not be loaded.')).toBeTruthy();
  });
});

describe('the deploy form in curve mode', () => {
  it('fixes the supply, hides dev allocation and liquidity, locks the issuer options, and gives them back', async () => {
    stubFetch((path) => {
      if (path === '/api/session') return { body: { user: { id: 5, username: 'dee' } } };
      if (path === '/api/wallets/balances') return { body: [] };
      if (path === '/api/config/fees')
        return {
          body: {
            service_fee: '15',
            issuer_reserve: '1.1',
            hot_wallet_reserve: '2',
            airdrop_fee_xrp: '2',
            owner_reserve: '0.2',
            network_fee_allowance: '0.001',
            bonding: curveConfig,
          },
        };
      return undefined;
    });
    render(withProviders(<DeployPage />, '/deploy-list'));
    const supply = (await screen.findByLabelText('Supply')) as HTMLInputElement;
    fireEvent.change(supply, { target: { value: '21000000' } });
    fireEvent.click(screen.getByLabelText('Requi', { exact: false }));
    expect(screen.getByLabelText('Dev allocation (%)')).toBeTruthy();
    // Issue 37: an instant launch burns its LP unless the creator unchecks it.
    expect((screen.getByLabelText('Burn the LP (recommended)') as HTMLInputElement).checked).toBe(true);

    fireEvent.click(screen.getByLabelText('Bonding curve'));
    await waitFor(() => expect(supply.value).toBe('1000000000'));
    expect(supply.readOnly).toBe(true);
    expect(screen.queryByLabelText('Dev allocation (%)')).toBeNull();
    expect(screen.queryByLabelText('Liquidity amount (XRP)')).toBeNull();
    expect(screen.getByLabelText('Pool fee after graduation (%)')).toBeTruthy();
    // A curve's graduation burns its pool's LP: no choice to make.
    expect(screen.queryByLabelText('Burn the LP (recommended)')).toBeNull();
    const blackhole = screen.getByLabelText('Blackhole the issuer', { exact: false }) as HTMLInputElement;
    const requireAuth = screen.getByLabelText('Require authorization', { exact: false }) as HTMLInputElement;
    expect([blackhole.checked, blackhole.disabled, requireAuth.checked, requireAuth.disabled]).toEqual([
      true,
      true,
      false,
      true,
    ]);

    fireEvent.click(screen.getByLabelText('Instant AMM'));
    await waitFor(() => expect(supply.value).toBe('21000000'));
    expect(supply.readOnly).toBe(false);
    expect(
      (screen.getByLabelText('Require authorization', { exact: false }) as HTMLInputElement).checked,
    ).toBe(true);
  });

  it('previews the curve the token gets: first price, graduation amount, anti-snipe rule', () => {
    const values = { liquidityPairType: 'XRP', ammFee: '0.3' } as Parameters<typeof CurveFacts>[0]['values'];
    render(<CurveFacts values={values} curve={curveConfig} />);
    const facts = screen.getByTestId('curve-facts').textContent;
    expect(facts).toContain('Bonding curve, paired with XRP');
    expect(facts).toContain('1,000,000,000');
    expect(facts).toContain('793,100,000');
    expect(facts).toContain('0.00000002806265 XRP');
    expect(facts).toContain('85.00536 XRP');
    expect(facts).toContain('At most 10,000,000 tokens a ledger for the first 5 ledgers');
    expect(facts).toContain('Burned at graduation: no one can ever withdraw the pool');
  });
});
