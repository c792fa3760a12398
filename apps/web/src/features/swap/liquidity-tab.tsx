import { useEffect, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  AMOUNT_DECIMALS,
  ESTIMATE_DEBOUNCE_MS,
  FEE_VOTE_MULTIPLIER,
  LIQUIDITY_MESSAGES,
  LP_FULL_REMOVAL_FRACTION,
  type AddLiquidityResult,
  type AmmVoteResult,
  type LpBalanceResult,
  type LpPriceResult,
  type PoolAssetRef,
  type RemoveLiquidityResult,
  type WalletBalance,
  Decimal,
} from '@ledgerpad/shared';
import { ApiError, apiPost } from '../../lib/api';
import { BALANCES_KEY } from '../../lib/wallet-balances';
import { exactAmount } from './amounts';
import { AuctionSlot } from './auction-slot';
import { StatusLine, useDebounced, useFading } from './hooks';
import { LpPosition } from './lp-position';
import './liquidity.css';

// The Liquidity tab of /swap (spec 001 §2, §5, §8): AMM deposits and withdrawals from the selected
// wallet, and the fee vote. The expected withdrawal is the server's XLS-30 computation on the pool
// as it is now (what the ledger then does); the LP balance falls back to 0.00 when it cannot be read.

interface TokenRef {
  issuer: string;
  /** Ledger currency code (3 letters or 40 hex). */
  code: string;
  ticker: string;
}

const AMOUNT_RE = new RegExp(`^\\d*(\\.\\d{0,${AMOUNT_DECIMALS}})?$`);
const LP_RE = /^\d*(\.\d{0,15})?$/;
const FEE_RE = /^\d*(\.\d{0,3})?$/;
const LP_PRESETS = [25, 50, 75, 100] as const;

const positive = (v: string) => /^\d*\.?\d+$/.test(v) && new Decimal(v).gt(0);
const errorText = (err: unknown) => (err instanceof ApiError ? err.message : '');
const fixed6 = (d: Decimal) => d.toDecimalPlaces(AMOUNT_DECIMALS, Decimal.ROUND_DOWN).toFixed();
export { exactAmount };

type Side = 'base' | 'token';

export function LiquidityTab({
  wallet,
  token,
  base = 'XRP',
}: {
  wallet: WalletBalance | undefined;
  token: TokenRef | null;
  /** The pair's base asset (XRP, or RLUSD for an RLUSD-paired token). */
  base?: 'XRP' | 'RLUSD';
}) {
  const queryClient = useQueryClient();
  const [view, setView] = useState<'actions' | 'vote'>('actions');
  const [action, setAction] = useState<'ADD' | 'REMOVE'>('ADD');
  const [deposit, setDeposit] = useState<'SINGLE' | 'DOUBLE'>('SINGLE');
  const [withdraw, setWithdraw] = useState<'double' | 'single'>('double');
  const [side, setSide] = useState<Side>('base');
  const [amountBase, setAmountBase] = useState('');
  const [amountToken, setAmountToken] = useState('');
  const [edited, setEdited] = useState<Side>('base');
  const [amountLp, setAmountLp] = useState('');
  const [limitPrice, setLimitPrice] = useState('');
  const [fee, setFee] = useState('');
  const [status, showStatus] = useFading();

  const address = wallet?.wallet_address;
  const market = token && address ? { wallet: address, issuer: token.issuer, token: token.code } : null;
  const baseRef: PoolAssetRef = base === 'RLUSD' ? { currency: 'RLUSD' } : { currency: 'XRP' };
  const selectedAsset = (s: Side): PoolAssetRef =>
    s === 'base' ? baseRef : { currency: token!.code, issuer: token!.issuer };
  const unit = (s: Side) => (s === 'base' ? base : (token?.ticker ?? 'token'));

  const balance = useQuery({
    queryKey: ['liquidity', 'lp-balance', address, token?.issuer, token?.code, base],
    queryFn: ({ signal }) =>
      apiPost<LpBalanceResult>(
        '/api/lp-token-balance',
        { ...market!, baseCurrency: base, baseIssuer: '' },
        { signal },
      ),
    enabled: market !== null,
    retry: false,
  });
  const lpBalance = balance.data?.balance ?? '0';
  const lpShown =
    balance.isError || !balance.data || new Decimal(lpBalance).isZero() ? '0.00' : exactAmount(lpBalance);

  const debouncedLp = useDebounced(amountLp, ESTIMATE_DEBOUNCE_MS);
  const price = useQuery({
    queryKey: ['liquidity', 'lp-price', token?.issuer, token?.code, base, debouncedLp],
    queryFn: ({ signal }) =>
      apiPost<LpPriceResult>(
        '/api/get-lp-price',
        {
          issuer: token!.issuer,
          token: token!.code,
          baseAsset: base,
          ...(positive(debouncedLp) ? { amountLp: debouncedLp } : {}),
        },
        { signal },
      ),
    enabled: token !== null && view === 'actions',
    retry: false,
    refetchInterval: 5_000,
    placeholderData: (prev) => prev,
  });
  const pool = price.data?.pool;

  // Both assets: the other amount follows the pool ratio, 300 ms after typing (cleared with it).
  const typed = edited === 'base' ? amountBase : amountToken;
  const settled = useDebounced(typed, ESTIMATE_DEBOUNCE_MS);
  useEffect(() => {
    if (deposit !== 'DOUBLE' || !pool) return;
    const setOther = edited === 'base' ? setAmountToken : setAmountBase;
    if (!positive(settled)) return setOther('');
    const ratio =
      edited === 'base' ? new Decimal(pool.token).div(pool.base) : new Decimal(pool.base).div(pool.token);
    setOther(fixed6(new Decimal(settled).mul(ratio)));
    // The pool refreshes every 5 s; the computed side follows the typed one, not each refresh.
    // (Once the pool is known, too: typing before it loaded still fills the other side.)
  }, [settled, edited, deposit, pool !== undefined]);

  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: ['liquidity'] });
    void queryClient.invalidateQueries({ queryKey: BALANCES_KEY });
  };

  const add = useMutation({
    mutationFn: () =>
      apiPost<AddLiquidityResult>('/api/add-liquidity', {
        ...market!,
        baseAsset: base,
        mode: deposit === 'DOUBLE' ? 'double-asset' : 'single-asset',
        selectedAsset: deposit === 'DOUBLE' ? null : selectedAsset(side),
        amountXrp: deposit === 'DOUBLE' || side === 'base' ? amountBase : '',
        amountToken: deposit === 'DOUBLE' || side === 'token' ? amountToken : '',
      }),
    onSuccess: () => {
      showStatus(LIQUIDITY_MESSAGES.added);
      setAmountBase('');
      setAmountToken('');
      refresh();
    },
    onError: (err) => showStatus(LIQUIDITY_MESSAGES.addFailedLine(errorText(err))),
  });

  const remove = useMutation({
    mutationFn: () =>
      apiPost<RemoveLiquidityResult>('/api/remove-liquidity', {
        ...market!,
        baseAsset: base,
        amountLp,
        mode: withdraw,
        selectedAsset: withdraw === 'single' ? selectedAsset(side) : null,
        limitPrice: withdraw === 'single' ? limitPrice : '',
      }),
    onSuccess: () => {
      showStatus(LIQUIDITY_MESSAGES.removed);
      setAmountLp('');
      setLimitPrice('');
      refresh();
    },
    onError: (err) => showStatus(LIQUIDITY_MESSAGES.removeFailedLine(errorText(err))),
  });

  const vote = useMutation({
    mutationFn: (tradingFee: number) =>
      apiPost<AmmVoteResult>('/api/amm-vote', { ...market!, baseAsset: base, tradingFee }),
    onSuccess: () => {
      showStatus(LIQUIDITY_MESSAGES.voteSuccess(new Decimal(fee).toFixed()));
      refresh();
    },
    onError: (err) =>
      showStatus(
        err instanceof ApiError && err.status > 0
          ? err.message || LIQUIDITY_MESSAGES.voteFailed
          : LIQUIDITY_MESSAGES.voteRetry,
      ),
  });

  // The screen's own checks (spec 001 §5), before anything is sent.
  const submitAdd = () => {
    if (!market) return showStatus(LIQUIDITY_MESSAGES.selectWalletAndToken);
    if (deposit === 'DOUBLE') {
      if (!positive(amountBase) || !positive(amountToken)) return showStatus(LIQUIDITY_MESSAGES.enterBoth);
    } else {
      const v = side === 'base' ? amountBase : amountToken;
      if (v !== '' && !/^\d*\.?\d+$/.test(v)) return showStatus(LIQUIDITY_MESSAGES.invalidToken);
      if (!positive(v)) return showStatus(LIQUIDITY_MESSAGES.enterAmount(unit(side)));
    }
    add.mutate();
  };
  const submitRemove = () => {
    if (!market) return showStatus(LIQUIDITY_MESSAGES.selectWalletAndToken);
    if (!positive(amountLp)) return showStatus(LIQUIDITY_MESSAGES.enterLp);
    remove.mutate();
  };
  const submitVote = () => {
    if (!market) return showStatus(LIQUIDITY_MESSAGES.selectWalletAndToken);
    if (fee.trim() === '' || fee === '.') return showStatus(LIQUIDITY_MESSAGES.fillAll);
    vote.mutate(new Decimal(fee).mul(FEE_VOTE_MULTIPLIER).toDecimalPlaces(0).toNumber());
  };

  // The LP amount is capped at the balance as it is typed (spec 001 §5).
  const setLp = (v: string) => {
    if (!LP_RE.test(v)) return;
    setAmountLp(v !== '' && v !== '.' && new Decimal(v).gt(lpBalance) ? new Decimal(lpBalance).toFixed() : v);
  };

  const expected = price.data?.expected;
  const expectedLine = !expected
    ? '—'
    : withdraw === 'double'
      ? `${exactAmount(expected.double.base)} ${base} + ${exactAmount(expected.double.token)} ${unit('token')}`
      : `${exactAmount(side === 'base' ? expected.singleBase : expected.singleToken)} ${unit(side)}`;
  const busy = add.isPending || remove.isPending || vote.isPending;

  const toggle = <T extends string>(
    label: string,
    value: T,
    options: ReadonlyArray<readonly [T, string]>,
    onChange: (v: T) => void,
  ) => (
    <div className="direction" role="group" aria-label={label}>
      {options.map(([v, text]) => (
        <button key={v} type="button" aria-pressed={value === v} onClick={() => onChange(v)}>
          {text}
        </button>
      ))}
    </div>
  );
  const amountField = (id: string, s: Side, value: string, onChange: (v: string) => void) => (
    <div className="field">
      <label className="field-label" htmlFor={id}>
        Amount ({unit(s)})
      </label>
      <input
        id={id}
        className="input"
        inputMode="decimal"
        placeholder="0.0"
        value={value}
        onChange={(e) => {
          if (AMOUNT_RE.test(e.target.value)) onChange(e.target.value);
        }}
        onKeyDown={(e) => e.key === 'Enter' && e.preventDefault()}
      />
    </div>
  );
  const assetChoice = (label: string) =>
    toggle<Side>(
      label,
      side,
      [
        ['base', base],
        ['token', unit('token')],
      ],
      setSide,
    );

  return (
    <div className="liquidity" data-testid="liquidity-tab">
      {toggle(
        'Liquidity view',
        view,
        [
          ['actions', 'Liquidity Actions'],
          ['vote', 'Vote on Fee'],
        ] as const,
        setView,
      )}

      {view === 'actions' ? (
        <>
          {toggle(
            'Liquidity action',
            action,
            [
              ['ADD', 'Add'],
              ['REMOVE', 'Remove'],
            ] as const,
            setAction,
          )}
          <p className="muted lp-balance" data-testid="lp-balance">
            LP token balance: <strong>{lpShown}</strong>
            {token && <span className="lp-name"> LP-{token.ticker}</span>}
          </p>

          {action === 'ADD' ? (
            <>
              {toggle(
                'Deposit mode',
                deposit,
                [
                  ['SINGLE', 'Single Asset'],
                  ['DOUBLE', 'Both Assets'],
                ] as const,
                (d) => {
                  setDeposit(d);
                  setAmountBase('');
                  setAmountToken('');
                },
              )}
              {deposit === 'SINGLE' ? (
                <>
                  {assetChoice('Asset to deposit')}
                  {side === 'base'
                    ? amountField('liq-amount-base', 'base', amountBase, setAmountBase)
                    : amountField('liq-amount-token', 'token', amountToken, setAmountToken)}
                  <p className="muted liquidity-note">
                    The pool&apos;s trading fee applies to a single-asset deposit.
                  </p>
                </>
              ) : (
                <div className="liquidity-pair">
                  {amountField('liq-amount-base', 'base', amountBase, (v) => {
                    setEdited('base');
                    setAmountBase(v);
                  })}
                  {amountField('liq-amount-token', 'token', amountToken, (v) => {
                    setEdited('token');
                    setAmountToken(v);
                  })}
                </div>
              )}
              <button
                type="button"
                className="swap-submit liquidity-submit"
                disabled={busy}
                onClick={submitAdd}
              >
                {add.isPending ? 'Adding…' : 'Add Liquidity'}
              </button>
            </>
          ) : (
            <>
              {toggle(
                'Withdrawal type',
                withdraw,
                [
                  ['double', 'Double-Asset (No Fee)'],
                  ['single', 'Single-Asset (Fee Applies)'],
                ] as const,
                (w) => {
                  // Changing the withdrawal type clears the limit price and the LP amount (spec 001 §4).
                  setWithdraw(w);
                  setLimitPrice('');
                  setAmountLp('');
                },
              )}
              <div className="field">
                <label className="field-label" htmlFor="liq-amount-lp">
                  LP tokens to withdraw
                </label>
                <input
                  id="liq-amount-lp"
                  className="input"
                  inputMode="decimal"
                  placeholder="0.0"
                  value={amountLp}
                  onChange={(e) => setLp(e.target.value)}
                  onKeyDown={(e) => e.key === 'Enter' && e.preventDefault()}
                />
                <div className="presets" role="group" aria-label="LP amount presets">
                  {LP_PRESETS.map((p) => (
                    <button
                      type="button"
                      key={p}
                      disabled={!new Decimal(lpBalance).gt(0)}
                      onClick={() =>
                        setAmountLp(
                          new Decimal(lpBalance)
                            // 100% withdraws 99.99% (spec 001 §9): never the pool's last token.
                            .mul(p === 100 ? LP_FULL_REMOVAL_FRACTION : p / 100)
                            .toSignificantDigits(15, Decimal.ROUND_DOWN)
                            .toFixed(),
                        )
                      }
                    >
                      {p}%
                    </button>
                  ))}
                </div>
              </div>
              {withdraw === 'single' && (
                <>
                  {assetChoice('Asset to withdraw')}
                  <p className="muted" data-testid="lp-price">
                    LP price:{' '}
                    {price.data
                      ? `${exactAmount(side === 'base' ? price.data.lpPerBase : price.data.lpPerToken, true)} LP per ${unit(side)}`
                      : '—'}
                  </p>
                  <div className="field">
                    <label className="field-label" htmlFor="liq-limit">
                      Limit price (LP tokens per {unit(side)}, optional)
                    </label>
                    <input
                      id="liq-limit"
                      className="input"
                      inputMode="decimal"
                      placeholder="No limit"
                      value={limitPrice}
                      onChange={(e) => {
                        if (LP_RE.test(e.target.value)) setLimitPrice(e.target.value);
                      }}
                      onKeyDown={(e) => e.key === 'Enter' && e.preventDefault()}
                    />
                  </div>
                  <p className="muted liquidity-note" role="note">
                    Single-asset withdrawals incur a fee because they change the pool balance.
                  </p>
                </>
              )}
              <p className="estimate" data-testid="expected-withdrawal">
                Expected Withdrawal: <strong>{positive(amountLp) ? expectedLine : '—'}</strong>
              </p>
              <button
                type="button"
                className="swap-submit liquidity-submit"
                disabled={busy}
                onClick={submitRemove}
              >
                {remove.isPending ? 'Removing…' : 'Remove Liquidity'}
              </button>
            </>
          )}
        </>
      ) : (
        <>
          <div className="field">
            <label className="field-label" htmlFor="liq-fee">
              Proposed trading fee (%)
            </label>
            <input
              id="liq-fee"
              className="input"
              type="number"
              min={0}
              max={1}
              step={0.001}
              placeholder="0.000 – 1.000"
              value={fee}
              onChange={(e) => {
                const v = e.target.value;
                // Only 0 to 1 (step 0.001): anything else clears the field (spec 001 §5).
                setFee(v !== '' && (!FEE_RE.test(v) || new Decimal(v).gt(1)) ? '' : v);
              }}
              onKeyDown={(e) => e.key === 'Enter' && e.preventDefault()}
            />
          </div>
          <button type="button" className="swap-submit liquidity-submit" disabled={busy} onClick={submitVote}>
            {vote.isPending ? 'Submitting…' : 'Submit Vote'}
          </button>
          <AuctionSlot
            wallet={wallet?.wallet_address}
            token={token}
            base={base}
            lpBalance={lpBalance}
            onStatus={showStatus}
          />
        </>
      )}

      <StatusLine status={status} testId="liquidity-status" />
      {view === 'actions' && (
        <LpPosition wallet={wallet?.wallet_address} token={token} base={base} lpBalance={lpBalance} />
      )}
    </div>
  );
}
