import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useLocation, useSearchParams } from 'react-router';
import * as Tabs from '@radix-ui/react-tabs';
import {
  ALL_IN_FRACTION,
  AMOUNT_DECIMALS,
  DEFAULT_SLIPPAGE_PERCENT,
  ESTIMATE_DEBOUNCE_MS,
  RLUSD_CURRENCY_HEX,
  ORDER_MESSAGES,
  SEARCH_DEBOUNCE_MS,
  isLaunchProtectionMessage,
  SWAP_MESSAGES,
  TRUSTLINE_MESSAGES,
  displayTicker,
  formatAmount,
  isLpCurrency,
  slippageSchema,
  statFigure,
  tradeAmountSchema,
  type AddTrustlineResult,
  type LimitOrderResult,
  type SlippagePreference,
  type SwapResult,
  type WalletBalance,
  Decimal,
} from '@ledgerpad/shared';
import { Modal } from '../../components/modal';
import { ApiError, apiGet, apiPost, apiPut } from '../../lib/api';
import { useSession } from '../../lib/session';
import { BALANCES_KEY, useWalletBalances } from '../../lib/wallet-balances';
import { IdentityBadge } from '../../components/identity-badge';
import { useMarketStats, useQuote, useTokenSearch } from './api';
import { batchSummary, randomAmounts, randomRange } from './batch';
import { StatusLine, useDebounced, useFading } from './hooks';
import { LiquidityTab } from './liquidity-tab';
import { RlusdSwap } from './rlusd-swap';
import './swap.css';

// /swap (spec 001 §2, §5, §8): market and limit buys and sells from one or several of the user's
// custodial wallets. The market estimate is the trade itself simulated on the ledger; the swap sends
// that estimate back so the ledger enforces the slippage against what the user saw. A limit order
// rests on the ledger's book at the user's price.

const WALLET_KEY = 'ledgerpad.swap.wallet';
const AMOUNT_RE = new RegExp(`^\\d*(\\.\\d{0,${AMOUNT_DECIMALS}})?$`);
const SLIPPAGE_RE = /^\d*(\.\d{0,2})?$/;
const PRICE_RE = /^\d*(\.\d{0,15})?$/;
const ADDRESS_LIKE = /^r[1-9A-HJ-NP-Za-km-z]{24,34}$/;
const BUY_PRESETS = ['10', '50', '100'] as const;
const SELL_PRESETS = [25, 50, 75, 100] as const;

interface TokenChoice {
  issuer: string;
  /** Ledger currency code (3 letters or 40 hex). */
  code: string;
  ticker: string;
}

interface NavState {
  walletAddress?: string;
  issuerAddress?: string;
  tokenCode?: string;
}

const spendableXrp = (w: WalletBalance) => Decimal.max(new Decimal(w.balance).minus(w.ledgerReserve), 0);
/** The wallet's RLUSD (what ALL IN spends on an RLUSD-paired token). */
const rlusdHeld = (w: WalletBalance) =>
  new Decimal(w.tokens.find((t) => t.currencyCode === RLUSD_CURRENCY_HEX)?.value ?? 0);
const sellable = (w: WalletBalance | undefined) =>
  (w?.tokens ?? []).filter(
    (t) =>
      !t.lpName &&
      !isLpCurrency(t.currencyCode) &&
      t.currencyCode !== RLUSD_CURRENCY_HEX &&
      Number(t.value) > 0,
  );

export function SwapPage() {
  const location = useLocation();
  const [params] = useSearchParams();
  const nav = (location.state ?? {}) as NavState;
  const queryClient = useQueryClient();
  const balances = useWalletBalances();
  const wallets = balances.data ?? [];

  const [walletAddress, setWalletAddress] = useState<string | null>(
    () => nav.walletAddress ?? localStorage.getItem(WALLET_KEY),
  );
  const wallet = wallets.find((w) => w.wallet_address === walletAddress) ?? wallets[0];
  useEffect(() => {
    if (wallet) localStorage.setItem(WALLET_KEY, wallet.wallet_address);
  }, [wallet]);

  const initialIssuer = nav.issuerAddress ?? params.get('issuer');
  const initialCode = nav.tokenCode ?? params.get('currency');
  const [token, setToken] = useState<TokenChoice | null>(
    initialIssuer && initialCode
      ? { issuer: initialIssuer, code: initialCode, ticker: displayTicker(initialCode) }
      : null,
  );
  const [mode, setMode] = useState<'market' | 'limit' | 'rlusd'>('market');
  const [price, setPrice] = useState('');
  const [multi, setMulti] = useState(false);
  const [ticked, setTicked] = useState<ReadonlySet<string>>(new Set());
  const [randomized, setRandomized] = useState(false);
  const [range, setRange] = useState({ min: '', max: '' });
  const [lineBusy, setLineBusy] = useState(false);
  const [lineAdded, setLineAdded] = useState(false);
  const [side, setSide] = useState<'BUY' | 'SELL'>('BUY');
  const [liquidity, setLiquidity] = useState(false);
  const [amount, setAmount] = useState('');
  const [slippage, setSlippage] = useState(DEFAULT_SLIPPAGE_PERCENT);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [status, showStatus] = useFading();
  const [received, showReceived] = useFading();

  // The saved slippage (0.50 when none; a failed read keeps 0.50, spec 001 §8).
  const session = useSession();
  const prefId = session.status === 'signed-in' ? String(session.user.telegram_id ?? session.user.id) : null;
  const savedSlippage = useQuery({
    queryKey: ['swap', 'slippage', prefId],
    queryFn: ({ signal }) => apiGet<SlippagePreference>(`/api/user/slippage/${prefId}`, { signal }),
    enabled: prefId !== null,
    retry: false,
    staleTime: Infinity,
  });
  const [slippageTouched, setSlippageTouched] = useState(false);
  useEffect(() => {
    if (savedSlippage.data && !slippageTouched) setSlippage(savedSlippage.data.slippage);
  }, [savedSlippage.data, slippageTouched]);
  const saveSlippage = () => {
    if (!slippageSchema.safeParse(slippage).success || slippage === savedSlippage.data?.slippage) return;
    void apiPut<SlippagePreference>('/api/user/slippage', { slippage })
      .then((saved) => queryClient.setQueryData(['swap', 'slippage', prefId], saved))
      .catch(() => undefined);
  };

  const debouncedAmount = useDebounced(amount, ESTIMATE_DEBOUNCE_MS);
  const validAmount = tradeAmountSchema.safeParse(debouncedAmount).success;
  const quote = useQuote(
    mode === 'market' && wallet && token && validAmount
      ? {
          wallet: wallet.wallet_address,
          issuer: token.issuer,
          token: token.code,
          side,
          amount: debouncedAmount,
        }
      : null,
  );
  const stats = useMarketStats(token?.issuer ?? null, token?.code ?? null);
  const quoteUnit = stats.data?.liquidityPair === 'RLUSD' ? 'RLUSD' : 'XRP';

  // Changing tab clears the amount and the estimate (spec 001 §4).
  const switchSide = (next: string) => {
    setSide(next as 'BUY' | 'SELL');
    setAmount('');
    setPrice('');
    setError(null);
  };
  const targets = multi ? wallets.filter((w) => ticked.has(w.wallet_address)) : wallet ? [wallet] : [];
  const randomOn = multi && randomized && mode === 'market' && side === 'BUY';

  const held = useMemo(() => sellable(wallet), [wallet]);
  const heldOfToken = token
    ? held.find((t) => t.issuer === token.issuer && t.currencyCode === token.code)
    : undefined;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    if (multi && (targets.length === 0 || !token)) return setError(SWAP_MESSAGES.selectWallets);
    if (!wallet || !token) return setError(SWAP_MESSAGES.selectWalletAndToken);
    let amounts: string[];
    if (randomOn) {
      const r = randomRange(range.min, range.max);
      if (typeof r === 'string') return setError(r);
      amounts = randomAmounts(r, targets.length);
    } else {
      if (!tradeAmountSchema.safeParse(amount).success) return setError(SWAP_MESSAGES.invalidAmount);
      amounts = targets.map(() => amount);
    }
    if (mode === 'limit' && !(PRICE_RE.test(price) && Number(price) > 0))
      return setError(SWAP_MESSAGES.limitPrice);
    if (mode === 'market' && !slippageSchema.safeParse(slippage).success)
      return setError(SWAP_MESSAGES.slippage);
    setBusy(true);
    try {
      const sends = targets.map((w, i) => {
        const body = {
          walletAddress: w.wallet_address,
          issuer: token.issuer,
          token: token.code,
          amount: amounts[i],
          type: side,
        };
        if (mode === 'limit') return apiPost<LimitOrderResult>('/api/limit-order', { ...body, price });
        return apiPost<SwapResult>('/api/swap', {
          ...body,
          slippage,
          // The estimate the user saw (this wallet's, same amount): the ledger refuses to execute
          // below it less the slippage. Other wallets are estimated again by the server.
          ...(w === wallet && !randomOn && quote.data && debouncedAmount === amount
            ? { expected: quote.data.receive }
            : {}),
        });
      });
      const results = await Promise.allSettled(sends);
      const done = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
      const failed = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []));
      if (!multi) {
        if (failed.length > 0) throw failed[0];
        const one = done[0]!;
        showStatus('order' in one ? ORDER_MESSAGES.placed(1) : one.message);
      } else {
        showStatus(batchSummary(mode === 'limit' ? 'limit' : 'market', done.length, failed.length));
      }
      const swaps = done.filter((r): r is SwapResult => 'received' in r);
      if (swaps.length > 0) {
        const total = swaps.reduce((sum, r) => sum.plus(r.received), new Decimal(0));
        showReceived(
          `You received ${formatAmount(total.toFixed())} ${side === 'BUY' ? token.ticker : swaps[0]!.quote}`,
        );
      }
      setAmount('');
      void queryClient.invalidateQueries({ queryKey: BALANCES_KEY });
    } catch (err) {
      const fallback = mode === 'limit' ? SWAP_MESSAGES.limitFailed : SWAP_MESSAGES.swapRetry;
      showStatus(err instanceof ApiError && err.status < 500 ? err.message : fallback);
    } finally {
      setBusy(false);
    }
  };

  /** 'Only Add Trustline' / 'Add Trustline for All Wallets' (spec 001 §2, §8). */
  const addTrustlines = async () => {
    setError(null);
    if (multi && (targets.length === 0 || !token)) return setError(SWAP_MESSAGES.selectWallets);
    if (!wallet || !token) return setError(SWAP_MESSAGES.selectWalletAndToken);
    setLineBusy(true);
    try {
      const results = await Promise.allSettled(
        targets.map((w) =>
          apiPost<AddTrustlineResult>('/api/add-trustline', {
            wallet: w.wallet_address,
            issuer: token.issuer,
            token: token.code,
          }),
        ),
      );
      const ok = results.filter((r) => r.status === 'fulfilled' && r.value.status === 'success').length;
      if (!multi) {
        const r = results[0]!;
        if (r.status === 'fulfilled' && r.value.status === 'success') setLineAdded(true);
        else
          showStatus(
            r.status === 'fulfilled'
              ? (r.value.error ?? TRUSTLINE_MESSAGES.failed)
              : r.reason instanceof ApiError && r.reason.status < 500
                ? r.reason.message
                : TRUSTLINE_MESSAGES.retry,
          );
      } else if (results.every((r) => r.status === 'rejected')) {
        showStatus(TRUSTLINE_MESSAGES.batchFailed);
      } else {
        showStatus(TRUSTLINE_MESSAGES.batch(ok, results.length - ok));
      }
      void queryClient.invalidateQueries({ queryKey: BALANCES_KEY });
    } finally {
      setLineBusy(false);
    }
  };

  const marketPrice = (quoteUnit === 'RLUSD' ? stats.data?.priceInUSD : stats.data?.priceInXRP) ?? null;
  const limitEstimate = useMemo(() => {
    if (!tradeAmountSchema.safeParse(amount).success || !(PRICE_RE.test(price) && Number(price) > 0))
      return null;
    const a = new Decimal(amount);
    return (side === 'BUY' ? a.div(price) : a.mul(price))
      .toDecimalPlaces(AMOUNT_DECIMALS, Decimal.ROUND_DOWN)
      .toFixed();
  }, [amount, price, side]);

  const quoteError =
    quote.error instanceof ApiError &&
    (quote.error.message === SWAP_MESSAGES.insufficientLiquidity ||
      isLaunchProtectionMessage(quote.error.message))
      ? quote.error.message
      : null;

  return (
    <div className="swap-page">
      <h1>Swap</h1>
      <div className="panel swap-card">
        <WalletSelect
          wallets={wallets}
          loading={balances.isPending}
          failed={balances.isError}
          value={wallet?.wallet_address}
          onChange={(address) => {
            setWalletAddress(address);
            setAmount('');
          }}
        />
        {wallets.length > 1 && mode !== 'rlusd' && !liquidity && (
          <MultiWallet
            wallets={wallets}
            multi={multi}
            onMulti={(on) => {
              setMulti(on);
              setError(null);
            }}
            ticked={ticked}
            onTicked={setTicked}
            randomAllowed={mode === 'market' && side === 'BUY'}
            randomized={randomized}
            onRandomized={setRandomized}
          />
        )}
        {/* Order modes (spec 001 §4): changing mode clears amounts and estimates. */}
        <div className="direction mode-switch" role="group" aria-label="Order mode" hidden={liquidity}>
          {(['market', 'limit', 'rlusd'] as const).map((m) => (
            <button
              key={m}
              type="button"
              aria-pressed={mode === m}
              onClick={() => {
                setMode(m);
                setAmount('');
                setPrice('');
                setError(null);
              }}
            >
              {m === 'market' ? 'Market' : m === 'limit' ? 'Limit' : 'XRP ⇄ RLUSD'}
            </button>
          ))}
        </div>
        {mode === 'rlusd' ? (
          <RlusdSwap wallet={wallet} />
        ) : (
          <form
            className={`swap-market-form${liquidity ? ' liquidity-mode' : ''}`}
            onSubmit={(e) => (liquidity ? e.preventDefault() : void submit(e))}
            noValidate
          >
            <Tabs.Root
              value={liquidity ? 'LIQUIDITY' : side}
              onValueChange={(v) => {
                setLiquidity(v === 'LIQUIDITY');
                switchSide(v === 'LIQUIDITY' ? side : v);
              }}
            >
              <Tabs.List className="swap-tabs" aria-label="Trade side">
                <Tabs.Trigger value="BUY" className="swap-tab buy">
                  Buy
                </Tabs.Trigger>
                <Tabs.Trigger value="SELL" className="swap-tab sell">
                  Sell
                </Tabs.Trigger>
                <Tabs.Trigger value="LIQUIDITY" className="swap-tab liquidity">
                  Liquidity
                </Tabs.Trigger>
              </Tabs.List>
              <Tabs.Content value="BUY" className="swap-side">
                <TokenPicker value={token} onChange={setToken} />
              </Tabs.Content>
              <Tabs.Content value="SELL" className="swap-side">
                {wallet && held.length === 0 ? (
                  <p className="muted" data-testid="empty-wallet">
                    Nothing to sell here — this wallet is emptier than a rug-pulled pool.
                  </p>
                ) : (
                  <div className="held-tokens" role="group" aria-label="Tokens in this wallet">
                    {held.map((t) => (
                      <button
                        type="button"
                        key={`${t.issuer}|${t.currencyCode}`}
                        aria-pressed={token?.issuer === t.issuer && token.code === t.currencyCode}
                        onClick={() => {
                          setToken({ issuer: t.issuer, code: t.currencyCode, ticker: t.currency });
                          setAmount('');
                        }}
                      >
                        {t.currency} <span className="muted">{formatAmount(t.value)}</span>
                      </button>
                    ))}
                  </div>
                )}
              </Tabs.Content>
              <Tabs.Content value="LIQUIDITY" className="swap-side">
                <TokenPicker value={token} onChange={setToken} />
                <LiquidityTab wallet={wallet} token={token} base={quoteUnit} />
              </Tabs.Content>
            </Tabs.Root>

            {token && (
              <p className="swap-market muted" data-testid="market-cap">
                {token.ticker} · Market cap{' '}
                {stats.isPending ? 'Loading...' : statFigure(stats.data?.marketCapInUSD ?? null, true)}
              </p>
            )}

            {randomOn ? (
              <div className="random-range">
                <div className="field">
                  <label className="field-label" htmlFor="swap-min">
                    Min ({quoteUnit})
                  </label>
                  <input
                    id="swap-min"
                    className="input"
                    inputMode="decimal"
                    value={range.min}
                    onChange={(e) => {
                      if (AMOUNT_RE.test(e.target.value)) setRange((r) => ({ ...r, min: e.target.value }));
                    }}
                  />
                </div>
                <div className="field">
                  <label className="field-label" htmlFor="swap-max">
                    Max ({quoteUnit})
                  </label>
                  <input
                    id="swap-max"
                    className="input"
                    inputMode="decimal"
                    value={range.max}
                    onChange={(e) => {
                      if (AMOUNT_RE.test(e.target.value)) setRange((r) => ({ ...r, max: e.target.value }));
                    }}
                  />
                </div>
              </div>
            ) : (
              <div className="field">
                <label className="field-label" htmlFor="swap-amount">
                  {side === 'BUY' ? `Amount (${quoteUnit})` : `Amount (${token?.ticker ?? 'tokens'})`}
                </label>
                <input
                  id="swap-amount"
                  className="input"
                  inputMode="decimal"
                  autoComplete="off"
                  placeholder="0.0"
                  value={amount}
                  onChange={(e) => {
                    if (AMOUNT_RE.test(e.target.value)) setAmount(e.target.value);
                  }}
                />
                <div className="presets">
                  {side === 'BUY'
                    ? [
                        ...BUY_PRESETS.map((p) => (
                          <button type="button" key={p} onClick={() => setAmount(p)}>
                            {p} {quoteUnit}
                          </button>
                        )),
                        <button
                          type="button"
                          key="all"
                          disabled={!wallet}
                          onClick={() =>
                            wallet &&
                            setAmount(
                              (quoteUnit === 'RLUSD' ? rlusdHeld(wallet) : spendableXrp(wallet))
                                .mul(ALL_IN_FRACTION)
                                .toDecimalPlaces(AMOUNT_DECIMALS, Decimal.ROUND_DOWN)
                                .toFixed(),
                            )
                          }
                        >
                          ALL IN
                        </button>,
                      ]
                    : SELL_PRESETS.map((p) => (
                        <button
                          type="button"
                          key={p}
                          disabled={!heldOfToken}
                          onClick={() =>
                            heldOfToken &&
                            setAmount(
                              new Decimal(heldOfToken.value)
                                .mul(p)
                                .div(100)
                                .toDecimalPlaces(AMOUNT_DECIMALS, Decimal.ROUND_DOWN)
                                .toFixed(),
                            )
                          }
                        >
                          {p}%
                        </button>
                      ))}
                </div>
              </div>
            )}

            {mode === 'limit' ? (
              <div className="field">
                <label className="field-label" htmlFor="swap-price">
                  Limit price ({quoteUnit} per token)
                </label>
                <input
                  id="swap-price"
                  className="input"
                  inputMode="decimal"
                  autoComplete="off"
                  placeholder="0.0"
                  value={price}
                  onChange={(e) => {
                    if (PRICE_RE.test(e.target.value)) setPrice(e.target.value);
                  }}
                />
                <p className="muted small" data-testid="market-price">
                  Market price:{' '}
                  {stats.isPending && token
                    ? 'Loading...'
                    : marketPrice
                      ? `${formatAmount(marketPrice)} ${quoteUnit}`
                      : 'N/A'}
                  {marketPrice && (
                    <button type="button" className="link-button" onClick={() => setPrice(marketPrice)}>
                      Use
                    </button>
                  )}
                </p>
              </div>
            ) : (
              <div className="field slippage-field">
                <label className="field-label" htmlFor="swap-slippage">
                  Slippage (%)
                </label>
                <input
                  id="swap-slippage"
                  className="input"
                  inputMode="decimal"
                  value={slippage}
                  onBlur={saveSlippage}
                  onChange={(e) => {
                    if (SLIPPAGE_RE.test(e.target.value)) {
                      setSlippage(e.target.value);
                      setSlippageTouched(true);
                    }
                  }}
                />
              </div>
            )}

            <p className="estimate" data-testid="estimate" aria-live="polite">
              {mode === 'limit' ? (
                limitEstimate && token ? (
                  <>
                    {side === 'BUY' ? 'You get' : 'You receive'} when filled:{' '}
                    <strong>
                      {formatAmount(limitEstimate)} {side === 'BUY' ? token.ticker : quoteUnit}
                    </strong>
                  </>
                ) : (
                  <span className="muted">Choose a token, an amount and a price.</span>
                )
              ) : randomOn ? (
                <span className="muted">
                  Each ticked wallet buys a random amount between the min and the max.
                </span>
              ) : !token || !validAmount ? (
                <span className="muted">Choose a token and an amount to see what you receive.</span>
              ) : quote.isPending ? (
                <span className="muted">Estimating…</span>
              ) : quoteError ? (
                <span className="error">{quoteError}</span>
              ) : quote.data ? (
                <>
                  You receive ≈{' '}
                  <strong>
                    {formatAmount(quote.data.receive)} {side === 'BUY' ? token.ticker : quote.data.quote}
                  </strong>
                  {quote.data.priceImpactPercent !== null && <> · impact {quote.data.priceImpactPercent}%</>}
                  {' · '}fee {formatAmount(quote.data.fee)} {quote.data.quote}
                  {quote.data.partial && <span className="error"> · only part would fill</span>}
                </>
              ) : (
                <span className="muted">No estimate right now.</span>
              )}
            </p>

            {error && (
              <p role="alert" className="form-error">
                {error}
              </p>
            )}
            <button
              type="submit"
              className={`swap-submit ${side === 'BUY' ? 'buy' : 'sell'}`}
              disabled={busy}
            >
              {busy
                ? mode === 'limit'
                  ? 'Placing…'
                  : 'Swapping…'
                : `${mode === 'limit' ? 'Place ' : ''}${side === 'BUY' ? 'Buy' : 'Sell'}${mode === 'limit' ? ' Order' : ''}${multi ? ` (${targets.length} wallets)` : ''}`}
            </button>
            <button
              type="button"
              className="btn-secondary trustline-button"
              disabled={lineBusy || busy}
              onClick={() => void addTrustlines()}
            >
              {lineBusy ? 'Adding…' : multi ? 'Add Trustline for All Wallets' : 'Only Add Trustline'}
            </button>
            {received && (
              <p className={`received${received.fading ? ' fading' : ''}`} data-testid="you-received">
                {received.text}
              </p>
            )}
            <StatusLine status={status} />
          </form>
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
    </div>
  );
}

/** Multi-wallet mode: tick the wallets to trade from; randomized buys for market buys only. */
function MultiWallet({
  wallets,
  multi,
  onMulti,
  ticked,
  onTicked,
  randomAllowed,
  randomized,
  onRandomized,
}: {
  wallets: WalletBalance[];
  multi: boolean;
  onMulti: (on: boolean) => void;
  ticked: ReadonlySet<string>;
  onTicked: (next: ReadonlySet<string>) => void;
  randomAllowed: boolean;
  randomized: boolean;
  onRandomized: (on: boolean) => void;
}) {
  return (
    <div className="multi-wallet">
      <label className="check">
        <input type="checkbox" checked={multi} onChange={(e) => onMulti(e.target.checked)} /> Multi-wallet
        mode
      </label>
      {multi && (
        <>
          <ul className="wallet-ticks" aria-label="Wallets to trade from">
            {wallets.map((w) => (
              <li key={w.wallet_address}>
                <label className="check">
                  <input
                    type="checkbox"
                    checked={ticked.has(w.wallet_address)}
                    onChange={(e) => {
                      const next = new Set(ticked);
                      if (e.target.checked) next.add(w.wallet_address);
                      else next.delete(w.wallet_address);
                      onTicked(next);
                    }}
                  />{' '}
                  {w.wallet_address.slice(0, 6)}…{w.wallet_address.slice(-4)}{' '}
                  <span className="muted">{formatAmount(w.balance)} XRP</span>
                </label>
              </li>
            ))}
          </ul>
          {randomAllowed && (
            <label className="check">
              <input type="checkbox" checked={randomized} onChange={(e) => onRandomized(e.target.checked)} />{' '}
              Randomized buys
            </label>
          )}
        </>
      )}
    </div>
  );
}

function WalletSelect({
  wallets,
  loading,
  failed,
  value,
  onChange,
}: {
  wallets: WalletBalance[];
  loading: boolean;
  failed: boolean;
  value: string | undefined;
  onChange: (address: string) => void;
}) {
  if (loading) return <p className="muted">Loading wallets…</p>;
  if (failed) return <p className="form-error">Failed to load wallets.</p>;
  if (wallets.length === 0)
    return <p className="muted">Create a wallet on the Wallets page to start trading.</p>;
  return (
    <div className="field">
      <label className="field-label" htmlFor="swap-wallet">
        Wallet
      </label>
      <select id="swap-wallet" className="input" value={value} onChange={(e) => onChange(e.target.value)}>
        {wallets.map((w) => (
          <option key={w.wallet_address} value={w.wallet_address}>
            {w.wallet_name ? `${w.wallet_name} · ` : ''}
            {w.wallet_address.slice(0, 6)}…{w.wallet_address.slice(-4)} · {formatAmount(w.balance)} XRP
          </option>
        ))}
      </select>
    </div>
  );
}

/** Issuer or name/ticker search; suggestions hide once the text looks like an issuer address. */
function TokenPicker({ value, onChange }: { value: TokenChoice | null; onChange: (t: TokenChoice) => void }) {
  const [text, setText] = useState(value ? value.ticker : '');
  const [open, setOpen] = useState(false);
  const query = useDebounced(text.trim(), SEARCH_DEBOUNCE_MS);
  const addressLike = ADDRESS_LIKE.test(query);
  const search = useTokenSearch(open && !addressLike ? query : '');
  const suggestions = search.data ?? [];
  const byAddress = useTokenSearch(addressLike ? query : '');

  // A typed issuer address picks its listed token as soon as the search knows it.
  useEffect(() => {
    const hit = byAddress.data?.find((s) => s.issuer_address === query);
    if (hit && value?.issuer !== hit.issuer_address) {
      onChange({ issuer: hit.issuer_address, code: hit.ticker, ticker: hit.ticker });
    }
  }, [byAddress.data, query, value, onChange]);

  return (
    <div className="field token-picker">
      <label className="field-label" htmlFor="swap-token">
        Token
      </label>
      <input
        id="swap-token"
        className="input"
        autoComplete="off"
        placeholder="Search by name, ticker or issuer address"
        value={text}
        onFocus={() => setOpen(true)}
        onBlur={() => setTimeout(() => setOpen(false), 150)}
        onChange={(e) => {
          setText(e.target.value);
          setOpen(true);
        }}
        role="combobox"
        aria-expanded={open && suggestions.length > 0}
        aria-controls="swap-token-list"
      />
      {open && !addressLike && suggestions.length > 0 && (
        <ul className="suggestions" id="swap-token-list" role="listbox">
          {suggestions.map((s) => (
            <li
              key={`${s.issuer_address}|${s.ticker}`}
              role="option"
              aria-selected={value?.issuer === s.issuer_address}
            >
              <button
                type="button"
                onMouseDown={(e) => e.preventDefault()}
                onClick={() => {
                  onChange({ issuer: s.issuer_address, code: s.ticker, ticker: s.ticker });
                  setText(s.ticker);
                  setOpen(false);
                }}
              >
                <strong>{s.ticker}</strong> <IdentityBadge token={s} />{' '}
                <span className="muted">{s.name}</span>
                <span className="muted small suggestion-issuer">{s.issuer_address}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
