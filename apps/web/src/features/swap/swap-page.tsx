import { useEffect, useMemo, useReducer, useState } from 'react';
import { useLocation, useSearchParams } from 'react-router';
import * as Tabs from '@radix-ui/react-tabs';
import {
  formatFull,
  formatPrice,
  RLUSD_CURRENCY_HEX,
  RLUSD_TICKER,
  TRUSTLINE_MESSAGES,
  displayTicker,
  isLpCurrency,
  parseDecimal,
  statFigure,
  type WalletBalance,
} from '@ledgerpad/shared';
import { Modal } from '../../components/modal';
import { ledgerReserves, usePlatformFees } from '../../lib/platform-fees';
import { useWalletBalances, walletLabel } from '../../lib/wallet-balances';
import { useMarketStats, useRlusd, useSlippagePreference, useTrustlineAction } from './api';
import { initialSwapForm, swapFormReducer, type OrderMode, type SwapTab, type TokenChoice } from './form';
import { StatusLine, useResultLine } from './hooks';
import { LiquidityTab } from './liquidity-tab';
import { HeldTokens, TokenPicker } from './panels/token-picker';
import { MultiWallet, WalletSelect } from './panels/wallet-select';
import { TradeBox } from './trade-box';
import './swap.css';

// /swap (spec 001 §2, §5, §8): market and limit buys and sells from one or several of the user's
// custodial wallets, XRP ⇄ RLUSD, and liquidity. The page composes small panels around one form
// store (form.ts); the calls are hooks in api.ts; the trade itself is trade-box.tsx.

const WALLET_KEY = 'ledgerpad.swap.wallet';
const MODES: ReadonlyArray<readonly [OrderMode, string]> = [
  ['market', 'Market'],
  ['limit', 'Limit'],
  ['rlusd', 'XRP ⇄ RLUSD'],
];

interface NavState {
  walletAddress?: string;
  issuerAddress?: string;
  tokenCode?: string;
}

/** What the Sell tab offers: tokens the wallet holds, LP tokens and RLUSD left out (spec 001 §2). */
const sellable = (w: WalletBalance | undefined) =>
  (w?.tokens ?? []).filter(
    (t) =>
      !t.lpName &&
      !isLpCurrency(t.currencyCode) &&
      t.currencyCode !== RLUSD_CURRENCY_HEX &&
      (parseDecimal(t.value)?.gt(0) ?? false),
  );

export function SwapPage() {
  const location = useLocation();
  const [params] = useSearchParams();
  const nav = (location.state ?? {}) as NavState;
  const issuer = nav.issuerAddress ?? params.get('issuer');
  const code = nav.tokenCode ?? params.get('currency');
  return (
    <div className="swap-page">
      <h1>Swap</h1>
      <SwapPanel
        initialToken={issuer && code ? { issuer, code, ticker: displayTicker(code) } : null}
        initialWallet={nav.walletAddress}
      />
    </div>
  );
}

/**
 * The swap box: wallet choice (one or several), order modes, Buy/Sell/Liquidity and the trade box
 * with its disclosure, warnings and guards. /swap shows it whole; the token page (issue 39: trade
 * where you look) shows it with its token fixed (`lockedToken`): Buy and Sell, market and limit, no
 * token picker, no XRP ⇄ RLUSD or liquidity (those stay on /swap). One component, not a copy.
 */
export function SwapPanel({
  initialToken = null,
  initialWallet,
  lockedToken,
}: {
  initialToken?: TokenChoice | null;
  initialWallet?: string;
  lockedToken?: TokenChoice;
}) {
  const balances = useWalletBalances();
  const wallets = useMemo(() => balances.data ?? [], [balances.data]);

  const [form, dispatch] = useReducer(swapFormReducer, null, () =>
    initialSwapForm({
      walletAddress: initialWallet ?? localStorage.getItem(WALLET_KEY),
      token: lockedToken ?? initialToken,
    }),
  );
  const wallet = wallets.find((w) => w.wallet_address === form.walletAddress) ?? wallets[0];
  useEffect(() => {
    if (wallet) localStorage.setItem(WALLET_KEY, wallet.wallet_address);
  }, [wallet]);

  const slippagePref = useSlippagePreference();
  useEffect(() => {
    if (slippagePref.saved) dispatch({ type: 'savedSlippage', value: slippagePref.saved });
  }, [slippagePref.saved]);

  const rlusd = useRlusd();
  const rlusdIssuer = rlusd.data?.issuer ?? null;
  const fees = usePlatformFees();
  const reserves = ledgerReserves(fees.data);
  const stats = useMarketStats(form.token?.issuer ?? null, form.token?.code ?? null);
  const tokenQuote = stats.data?.liquidityPair === 'RLUSD' ? 'RLUSD' : 'XRP';

  // What is traded against what: the chosen token in its own pair, or RLUSD against XRP.
  const rlusdMode = form.mode === 'rlusd';
  const traded: TokenChoice | null = rlusdMode
    ? rlusdIssuer
      ? { issuer: rlusdIssuer, code: rlusd.data!.currency, ticker: RLUSD_TICKER }
      : null
    : form.token;
  const targets = form.multi
    ? wallets.filter((w) => form.ticked.includes(w.wallet_address))
    : wallet
      ? [wallet]
      : [];
  const held = useMemo(() => sellable(wallet), [wallet]);
  const liquidity = form.tab === 'LIQUIDITY';
  const marketPrice = (tokenQuote === 'RLUSD' ? stats.data?.priceInUSD : stats.data?.priceInXRP) ?? null;

  const trustline = useTrustlineAction();
  const [lineAdded, setLineAdded] = useState(false);
  const [lineStatus, showLineStatus] = useResultLine();
  const addTrustlines = async () => {
    if (!form.token || targets.length === 0) return;
    const outcomes = await trustline
      .run({ issuer: form.token.issuer, token: form.token.code, wallets: targets })
      .catch(() => undefined);
    if (!outcomes) return;
    const ok = outcomes.filter((o) => o.ok).length;
    if (!form.multi) {
      const one = outcomes[0]!;
      if (one.ok) setLineAdded(true);
      else showLineStatus(one.message, false);
      return;
    }
    showLineStatus(
      <div className="trade-results" data-testid="trustline-results">
        <p className="trade-results-summary">
          {ok === 0 && outcomes.every((o) => !o.ok && o.unknown)
            ? TRUSTLINE_MESSAGES.batchFailed
            : TRUSTLINE_MESSAGES.batch(ok, outcomes.length - ok)}
        </p>
        <ul className="trade-results-list" aria-label="Each wallet's result">
          {outcomes.map((o) => (
            <li key={o.wallet.wallet_address} className={o.ok ? 'ok' : 'bad'}>
              {walletLabel(o.wallet)}:{' '}
              {o.ok ? (o.existed ? 'already had the line' : 'trust line added') : o.message}
            </li>
          ))}
        </ul>
      </div>,
      ok === outcomes.length,
    );
  };
  const lineReason = !wallet
    ? 'Create a wallet first'
    : form.multi && targets.length === 0
      ? 'Tick the wallets first'
      : !form.token
        ? 'Choose a token first'
        : null;

  return (
    <>
      <div className="panel swap-card">
        <WalletSelect
          wallets={wallets}
          loading={balances.isPending}
          failed={balances.isError}
          value={wallet?.wallet_address}
          onChange={(address) => dispatch({ type: 'wallet', address })}
        />
        {wallets.length > 1 && !rlusdMode && !liquidity && (
          <MultiWallet
            wallets={wallets}
            multi={form.multi}
            onMulti={(on) => dispatch({ type: 'multi', on })}
            ticked={form.ticked}
            onTick={(address, on) => dispatch({ type: 'tick', address, on })}
            randomAllowed={form.mode === 'market' && form.tab === 'BUY'}
            randomized={form.randomized}
            onRandomized={(on) => dispatch({ type: 'randomized', on })}
          />
        )}
        {/* Order modes (spec 001 §4): changing mode clears amounts and estimates. */}
        <div className="direction mode-switch" role="group" aria-label="Order mode" hidden={liquidity}>
          {(lockedToken ? MODES.filter(([m]) => m !== 'rlusd') : MODES).map(([m, text]) => (
            <button
              key={m}
              type="button"
              aria-pressed={form.mode === m}
              onClick={() => dispatch({ type: 'mode', mode: m })}
            >
              {text}
            </button>
          ))}
        </div>
        {rlusdMode ? (
          <div className="direction" role="group" aria-label="Direction">
            {(['XRP_RLUSD', 'RLUSD_XRP'] as const).map((d) => (
              <button
                key={d}
                type="button"
                aria-pressed={form.rlusdDirection === d}
                onClick={() => dispatch({ type: 'rlusdDirection', direction: d })}
              >
                {d === 'XRP_RLUSD' ? 'XRP → RLUSD' : 'RLUSD → XRP'}
              </button>
            ))}
          </div>
        ) : (
          <Tabs.Root value={form.tab} onValueChange={(v) => dispatch({ type: 'tab', tab: v as SwapTab })}>
            <Tabs.List className="swap-tabs" aria-label="Trade side">
              <Tabs.Trigger value="BUY" className="swap-tab buy">
                Buy
              </Tabs.Trigger>
              <Tabs.Trigger value="SELL" className="swap-tab sell">
                Sell
              </Tabs.Trigger>
              {!lockedToken && (
                <Tabs.Trigger value="LIQUIDITY" className="swap-tab pool">
                  Liquidity
                </Tabs.Trigger>
              )}
            </Tabs.List>
            {!lockedToken && (
              <>
                <Tabs.Content value="BUY" className="swap-side">
                  <TokenPicker value={form.token} onChange={(token) => dispatch({ type: 'token', token })} />
                </Tabs.Content>
                <Tabs.Content value="SELL" className="swap-side">
                  {wallet && (
                    <HeldTokens
                      tokens={held}
                      value={form.token}
                      onChange={(token) => dispatch({ type: 'token', token })}
                    />
                  )}
                </Tabs.Content>
                <Tabs.Content value="LIQUIDITY" className="swap-side">
                  <TokenPicker value={form.token} onChange={(token) => dispatch({ type: 'token', token })} />
                  <LiquidityTab
                    wallet={wallet}
                    token={form.token}
                    base={tokenQuote}
                    rlusdIssuer={rlusdIssuer}
                  />
                </Tabs.Content>
              </>
            )}
          </Tabs.Root>
        )}
        {rlusdMode && !rlusd.isPending && !rlusdIssuer && (
          <p className="muted">RLUSD is not available on this network.</p>
        )}

        {!liquidity && (
          <>
            {form.token && !rlusdMode && (
              // Each figure stays on one line (a narrow trade box breaks the line between them).
              <p className="swap-market muted">
                {form.token.ticker} ·{' '}
                {/* One price (issue 39): the pool's spot or the curve's next offer, as list and page show it. */}
                <span
                  className="swap-market-figure"
                  data-testid="swap-price"
                  title={marketPrice ? `${formatFull(marketPrice)} ${tokenQuote}` : undefined}
                >
                  Price{' '}
                  {marketPrice
                    ? `${formatPrice(marketPrice)} ${tokenQuote}`
                    : stats.isPending
                      ? '…'
                      : 'no market'}
                </span>{' '}
                ·{' '}
                <span className="swap-market-figure" data-testid="market-cap">
                  Market cap{' '}
                  {stats.isPending ? 'Loading...' : statFigure(stats.data?.marketCapInUSD ?? null, true)}
                </span>
              </p>
            )}
            <TradeBox
              form={form}
              dispatch={dispatch}
              wallet={wallet}
              targets={targets}
              token={traded}
              quoteAsset={rlusdMode ? 'XRP' : tokenQuote}
              rlusdIssuer={rlusdIssuer}
              reserves={reserves}
              feePercent={fees.data?.trading_fee_percent}
              marketPrice={marketPrice}
              marketPriceLoading={stats.isPending}
              onSlippageSaved={slippagePref.save}
            />
            {!rlusdMode && (
              <div className="trustline-block">
                <button
                  type="button"
                  className="btn-secondary trustline-button"
                  disabled={trustline.busy || lineReason !== null}
                  title={lineReason ?? undefined}
                  onClick={() => void addTrustlines()}
                >
                  {trustline.busy
                    ? 'Adding…'
                    : form.multi
                      ? 'Add Trustline for All Wallets'
                      : 'Only Add Trustline'}
                </button>
                <StatusLine status={lineStatus} testId="trustline-status" />
              </div>
            )}
          </>
        )}
      </div>
      <Modal open={lineAdded} onOpenChange={setLineAdded} title="Trustline added" role="alertdialog">
        <p>{TRUSTLINE_MESSAGES.added}</p>
        <div className="modal-actions">
          <button type="button" onClick={() => setLineAdded(false)}>
            OK
          </button>
        </div>
      </Modal>
    </>
  );
}
