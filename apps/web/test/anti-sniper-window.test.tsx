import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  curveTokensFor,
  deployCost,
  formatToken,
  windowCurveParams,
  type BondingConfigView,
  type BondingView,
  type FeesConfig,
} from '@ledgerpad/shared';
import { DeployPage } from '../src/features/deploy/deploy-page';
import { LaunchFigures } from '../src/features/deploy/launch-figures';
import { BondingPanel } from '../src/features/token/bonding-panel';
import { stubFetch, withProviders } from './support';

// Issue 37: an instant launch's anti-sniper window on the web (docs/launch-protection.md) — the
// deploy form's box for instant launches (on by default, with its sentence), the preview's first buy
// at the ladder's plain price and the window's deposit in the cost, and the token page's panel
// counting down to the pool's opening.

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.useRealTimers();
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
const fees = {
  service_fee: '15',
  issuer_reserve: '1.1',
  hot_wallet_reserve: '2',
  airdrop_fee_xrp: '2',
  owner_reserve: '0.2',
  network_fee_allowance: '0.001',
  trading_fee_percent: '0.75',
  bonding: curveConfig,
} as FeesConfig;

describe('the deploy form of an instant launch', () => {
  it('offers the anti-sniper window, on by default, saying the pool opens after it with its LP burned', async () => {
    stubFetch((path) => {
      if (path === '/api/session') return { body: { user: { id: 5, username: 'dee' } } };
      if (path === '/api/wallets/balances') return { body: [] };
      if (path === '/api/config/fees') return { body: fees };
      return undefined;
    });
    render(withProviders(<DeployPage />, '/deploy-list'));
    const box = (await screen.findByLabelText('Anti-sniper window (recommended)')) as HTMLInputElement;
    expect(box.checked).toBe(true);
    await waitFor(() =>
      expect(document.getElementById('anti-sniper-hint')!.textContent).toBe(
        'For the first 2 minutes your token sells only on a ladder priced along your pool’s own curve, and every buy — on Ledgerpad or straight on the ledger — pays a surcharge that starts at 25% and steps down to 0. When the window ends, the pool opens with your liquidity plus everything the window raised and the tokens not sold, and its LP tokens are burned.',
      ),
    );
    // Keep the LP: the window turns off (its pool always burns); turning it on burns the LP again.
    const burn = screen.getByLabelText('Burn the LP', { exact: false }) as HTMLInputElement;
    fireEvent.click(burn);
    await waitFor(() => expect(box.checked).toBe(false));
    expect(burn.checked).toBe(false);
    fireEvent.click(box);
    await waitFor(() => expect(burn.checked).toBe(true));
    // Require authorization turns it off too.
    fireEvent.click(screen.getByLabelText('Require authorization', { exact: false }));
    await waitFor(() => expect(box.checked).toBe(false));
  });

  it("prices the window's first buy on the ladder and its deposit by the shared rule", () => {
    render(
      <LaunchFigures
        supply="1000000"
        devAllocation="0"
        locked={false}
        liquidityAmount="100"
        pair="XRP"
        ammFee="0.3"
        firstBuyXrp="10"
        feePercent="0.75"
        ticker="WNDW"
        window={{ steps: 200, fineSteps: 6 }}
      />,
    );
    // The tokens 10 XRP buy on the ladder's curve (x0 = 100 XRP, y0 = 1,000,000) at its plain price.
    const shape = windowCurveParams({
      poolDrops: 100_000_000n,
      poolTokens: '1000000',
      steps: 200,
      fineSteps: 6,
    })!;
    const tokens = curveTokensFor(shape, 0, 10_000_000n, 8)!;
    expect(screen.getByTestId('first-buy-tokens').textContent).toBe(`${formatToken(tokens.toFixed())} WNDW`);
    expect(screen.getByTestId('first-buy-cost').textContent).toBe(
      '10 XRP + 0.075 XRP platform fee (0.75%) = 10.075 XRP, at the ladder’s plain price before its first offer: no one can buy before you',
    );
    // The window's account deposit (the curve launch's) instead of the hot wallet's reserve.
    const form = { liquidityPairType: 'XRP' as const, liquidityAmount: '100', devAllocation: '0' };
    const windowed = deployCost({ ...form, antiSniper: true, firstBuyXrp: '10' }, fees, 5);
    const plain = deployCost({ ...form, firstBuyXrp: '10' }, fees, 5);
    expect(windowed.hotWalletReserve).toBe('7.3');
    expect(plain.hotWalletReserve).toBe('2');
  });
});

const windowView = (patch: Partial<BondingView> = {}): BondingView => ({
  token_id: 9,
  status: 'active',
  quote: 'XRP',
  curve_address: 'rhpVmPnKCmSB3Fca3rjons5XEdkxcvVV3w',
  sold: '92345.25',
  curve_supply: '500000',
  percent: '18.46',
  raised: '10',
  target: '100',
  price: '0.0001250627',
  end_price: '0.0004',
  market_cap: '125.0627',
  market_cap_usd: null,
  launch_ledger: 120,
  snipe_until_ledger: null,
  snipe_tokens: '0',
  steps: 200,
  amm_account: null,
  graduated_ledger: null,
  kind: 'window',
  pool_opens_in_seconds: 95,
  ...patch,
});

describe("the token page's panel of a window launch", () => {
  it('says when the pool opens (m:ss, counting down), not a graduation target', () => {
    vi.useFakeTimers();
    render(<BondingPanel curve={windowView()} loading={false} failed={false} />);
    expect(screen.getByRole('heading', { name: 'Anti-sniper window' })).toBeTruthy();
    expect(screen.getByTestId('pool-opens-in').textContent).toBe('Pool opens in 1:35');
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(screen.queryByText('Raised')).toBeNull();
    expect(screen.getByText('92,345 / 500,000')).toBeTruthy();
    act(() => void vi.advanceTimersByTime(3000));
    expect(screen.getByTestId('pool-opens-in').textContent).toBe('Pool opens in 1:32');
  });

  it('says the pool is open with its LP burned once the window is over', () => {
    render(
      <BondingPanel
        curve={windowView({ status: 'graduated', amm_account: 'rGvPRc4Wz6UXbFkk5ydFVXaeHbHgk3fjPX' })}
        loading={false}
        failed={false}
      />,
    );
    expect(screen.getByRole('heading', { name: 'The pool is open' })).toBeTruthy();
    expect(screen.getByTestId('bonding-panel').textContent).toContain('Its LP tokens are burned.');
  });
});
