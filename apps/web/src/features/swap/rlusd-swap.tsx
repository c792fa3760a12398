import { useState, type FormEvent } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  ALL_IN_FRACTION,
  AMOUNT_DECIMALS,
  DEFAULT_SLIPPAGE_PERCENT,
  ESTIMATE_DEBOUNCE_MS,
  SWAP_MESSAGES,
  formatAmount,
  slippageSchema,
  tradeAmountSchema,
  type SwapResult,
  type WalletBalance,
  Decimal,
} from '@ledgerpad/shared';
import { ApiError, apiGet, apiPost } from '../../lib/api';
import { BALANCES_KEY } from '../../lib/wallet-balances';
import { useQuote } from './api';
import { StatusLine, useDebounced, useFading } from './hooks';

// XRP ⇄ RLUSD (spec 001 §2): the same market swap against the network's XRP/RLUSD pool and book.
// 'XRP → RLUSD' buys RLUSD with XRP; 'RLUSD → XRP' sells it. Presets: XRP 10, 50, 100 and ALL IN
// (99.2% of the spendable XRP); RLUSD 25, 50, 75, 100 % and ALL IN.

const AMOUNT_RE = new RegExp(`^\\d*(\\.\\d{0,${AMOUNT_DECIMALS}})?$`);
const SLIPPAGE_RE = /^\d*(\.\d{0,2})?$/;

const down6 = (d: Decimal) => d.toDecimalPlaces(AMOUNT_DECIMALS, Decimal.ROUND_DOWN).toFixed();

export function RlusdSwap({ wallet }: { wallet: WalletBalance | undefined }) {
  const queryClient = useQueryClient();
  const rlusd = useQuery({
    queryKey: ['config', 'rlusd'],
    queryFn: () =>
      apiGet<{ issuer: string | null; currency: string }>('/api/config/rlusd', { credentials: false }),
    staleTime: Infinity,
  });
  const [direction, setDirection] = useState<'XRP_RLUSD' | 'RLUSD_XRP'>('XRP_RLUSD');
  const [amount, setAmount] = useState('');
  const [slippage, setSlippage] = useState(DEFAULT_SLIPPAGE_PERCENT);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [status, showStatus] = useFading();
  const side = direction === 'XRP_RLUSD' ? 'BUY' : 'SELL';
  const issuer = rlusd.data?.issuer ?? null;
  const currency = rlusd.data?.currency ?? '';
  const rlusdHeld = new Decimal(
    wallet?.tokens.find((t) => t.issuer === issuer && t.currencyCode === currency)?.value ?? '0',
  );
  const spendable = wallet ? Decimal.max(new Decimal(wallet.balance).minus(wallet.ledgerReserve), 0) : null;
  const debounced = useDebounced(amount, ESTIMATE_DEBOUNCE_MS);
  const quote = useQuote(
    wallet && issuer && tradeAmountSchema.safeParse(debounced).success
      ? { wallet: wallet.wallet_address, issuer, token: currency, side, amount: debounced }
      : null,
  );

  if (rlusd.isPending) return <p className="muted">Loading…</p>;
  if (!issuer) return <p className="muted">RLUSD is not available on this network.</p>;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    // XRP ⇄ RLUSD needs a positive amount (spec 001 §5).
    if (!wallet || !tradeAmountSchema.safeParse(amount).success) return setError(SWAP_MESSAGES.invalidAmount);
    if (!slippageSchema.safeParse(slippage).success) return setError(SWAP_MESSAGES.slippage);
    setBusy(true);
    try {
      const result = await apiPost<SwapResult>('/api/swap', {
        walletAddress: wallet.wallet_address,
        issuer,
        token: currency,
        baseAsset: 'XRP',
        amount,
        type: side,
        slippage,
        ...(quote.data && debounced === amount ? { expected: quote.data.receive } : {}),
      });
      showStatus(result.message);
      setAmount('');
      void queryClient.invalidateQueries({ queryKey: BALANCES_KEY });
    } catch (err) {
      showStatus(err instanceof ApiError && err.status < 500 ? err.message : SWAP_MESSAGES.swapRetry);
    } finally {
      setBusy(false);
    }
  };

  const presets =
    direction === 'XRP_RLUSD'
      ? [
          ...['10', '50', '100'].map((v) => ({ label: `${v} XRP`, value: v })),
          { label: 'ALL IN', value: spendable ? down6(spendable.mul(ALL_IN_FRACTION)) : '' },
        ]
      : [
          ...[25, 50, 75, 100].map((p) => ({ label: `${p}%`, value: down6(rlusdHeld.mul(p).div(100)) })),
          { label: 'ALL IN', value: down6(rlusdHeld) },
        ];

  return (
    <form className="swap-rlusd" onSubmit={(e) => void submit(e)} noValidate>
      <div className="direction" role="group" aria-label="Direction">
        {(['XRP_RLUSD', 'RLUSD_XRP'] as const).map((d) => (
          <button
            key={d}
            type="button"
            aria-pressed={direction === d}
            onClick={() => {
              setDirection(d);
              setAmount('');
              setError(null);
            }}
          >
            {d === 'XRP_RLUSD' ? 'XRP → RLUSD' : 'RLUSD → XRP'}
          </button>
        ))}
      </div>
      <p className="muted" data-testid="paying-balance">
        Balance:{' '}
        {direction === 'XRP_RLUSD'
          ? `${spendable ? formatAmount(spendable.toFixed()) : '—'} XRP spendable`
          : `${formatAmount(rlusdHeld.toFixed())} RLUSD`}
      </p>
      <div className="field">
        <label className="field-label" htmlFor="rlusd-amount">
          Amount ({direction === 'XRP_RLUSD' ? 'XRP' : 'RLUSD'})
        </label>
        <input
          id="rlusd-amount"
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
          {presets.map((p) => (
            <button type="button" key={p.label} disabled={!p.value} onClick={() => setAmount(p.value)}>
              {p.label}
            </button>
          ))}
        </div>
      </div>
      <div className="field slippage-field">
        <label className="field-label" htmlFor="rlusd-slippage">
          Slippage (%)
        </label>
        <input
          id="rlusd-slippage"
          className="input"
          inputMode="decimal"
          value={slippage}
          onChange={(e) => {
            if (SLIPPAGE_RE.test(e.target.value)) setSlippage(e.target.value);
          }}
        />
      </div>
      <p className="estimate" data-testid="rlusd-estimate" aria-live="polite">
        {quote.data ? (
          <>
            You receive ≈{' '}
            <strong>
              {formatAmount(quote.data.receive)} {direction === 'XRP_RLUSD' ? 'RLUSD' : 'XRP'}
            </strong>{' '}
            · fee {formatAmount(quote.data.fee)} XRP
          </>
        ) : quote.error instanceof ApiError && quote.error.message === SWAP_MESSAGES.insufficientLiquidity ? (
          <span className="error">{SWAP_MESSAGES.insufficientLiquidity}</span>
        ) : (
          <span className="muted">Enter an amount to see what you receive.</span>
        )}
      </p>
      {error && (
        <p role="alert" className="form-error">
          {error}
        </p>
      )}
      <button type="submit" className="swap-submit buy" disabled={busy || !wallet}>
        {busy ? 'Swapping…' : 'Swap'}
      </button>
      <StatusLine status={status} />
    </form>
  );
}
