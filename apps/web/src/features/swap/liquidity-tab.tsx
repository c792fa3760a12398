import { useEffect, useReducer, useRef, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import {
  AMOUNT_DECIMALS,
  ESTIMATE_DEBOUNCE_MS,
  FEE_VOTE_MULTIPLIER,
  LIQUIDITY_MESSAGES,
  SWAP_MESSAGES,
  singleWithdrawLimit,
  LP_FULL_REMOVAL_FRACTION,
  RLUSD_CURRENCY_HEX,
  dropsToXrp,
  formatFull,
  parseXrpDrops,
  xrpNeeded,
  formatMoney,
  formatPrice,
  formatToken,
  truncateDecimals,
  Decimal,
  type AddLiquidityResult,
  type AmmVoteResult,
  type AssetAmount,
  type PoolAssetRef,
  type RemoveLiquidityResult,
  type WalletBalance,
  FEE_VOTE_MAX_PERCENT,
  FEE_VOTE_MIN_PERCENT,
  FEE_VOTE_STEP_PERCENT,
  PERCENT_PRESETS,
} from '@ledgerpad/shared';
import { AmountField } from '../../components/amount-field';
import { ApiError, apiPost, hasStatus, userMessage } from '../../lib/api';
import { useLedgerAction, type KeyFor } from '../../lib/ledger-action';
import { ledgerReserves, usePlatformFees } from '../../lib/platform-fees';
import { runSigned } from '../../lib/signer';
import { walletKeys } from '../../lib/query-keys';
import { availableDrops, spendableDrops, tokenBalance } from '../../lib/wallet-funds';
import { useLpBalance, useLpPrice } from './api';
import type { TokenChoice } from './form';
import { AuctionSlot } from './auction-slot';
import { StatusLine, useDebounced, useFading } from './hooks';
import { liquidityKeys } from './keys';
import { initialLiquidityForm, liquidityReducer, type LiquiditySide } from './liquidity-form';
import { LpPosition } from './lp-position';
import { walletShortfall, type Shortfall } from './readiness';
import './liquidity.css';

// The Liquidity tab of /swap (spec 001 §2, §5, §8): AMM deposits and withdrawals from the selected
// wallet, and the fee vote. The Add form shows what the wallet holds of both sides, 'Max' for each,
// and the LP tokens the deposit will issue (the server's XLS-30 computation on the pool as it is
// now); the buttons say why they cannot send, including amounts above the balance (nothing sent).
// The LP balance falls back to 0.00 when it cannot be read.

const positive = (v: string) => /^\d*\.?\d+$/.test(v) && new Decimal(v).gt(0);
const fixed6 = (d: Decimal) => truncateDecimals(d, AMOUNT_DECIMALS);

type Side = LiquiditySide;
type Reason = { ok: true } | { ok: false; reason: string; detail?: string };

export function LiquidityTab({
  wallet,
  token,
  base = 'XRP',
  rlusdIssuer = null,
}: {
  wallet: WalletBalance | undefined;
  token: TokenChoice | null;
  /** The pair's base asset (XRP, or RLUSD for an RLUSD-paired token). */
  base?: 'XRP' | 'RLUSD';
  rlusdIssuer?: string | null;
}) {
  const queryClient = useQueryClient();
  // Every input of the tab in one store (liquidity-form.ts), as the swap form keeps its own.
  const [form, dispatch] = useReducer(liquidityReducer, initialLiquidityForm);
  const {
    view,
    action,
    deposit,
    withdraw,
    side,
    amountBase,
    amountToken,
    edited,
    amountLp,
    limitPrice,
    fee,
  } = form;
  const [status, showStatus, clearStatus] = useFading();
  const fees = usePlatformFees();
  const reserves = ledgerReserves(fees.data);

  const address = wallet?.wallet_address;
  const market = token && address ? { wallet: address, issuer: token.issuer, token: token.code } : null;
  // What is missing, by name (issue 39: 'Please select a wallet and token.' with a wallet selected).
  const missing =
    token && !address
      ? SWAP_MESSAGES.selectWallet
      : address && !token
        ? SWAP_MESSAGES.selectToken
        : LIQUIDITY_MESSAGES.selectWalletAndToken;
  const baseRef: PoolAssetRef = base === 'RLUSD' ? { currency: 'RLUSD' } : { currency: 'XRP' };
  const selectedAsset = (s: Side): PoolAssetRef =>
    s === 'base' ? baseRef : { currency: token!.code, issuer: token!.issuer };
  const unit = (s: Side) => (s === 'base' ? base : (token?.ticker ?? 'token'));

  const balance = useLpBalance(address, token, base);
  const lpBalance = balance.data?.balance ?? '0';
  const lpShown =
    balance.isError || !balance.data || new Decimal(lpBalance).isZero() ? '0.00' : formatToken(lpBalance);

  // What the wallet holds of each side: XRP available (balance − reserve) or RLUSD, and the token.
  const baseHeld = wallet
    ? base === 'XRP'
      ? dropsToXrp(availableDrops(wallet))
      : rlusdIssuer
        ? tokenBalance(wallet, RLUSD_CURRENCY_HEX, rlusdIssuer)
        : '0'
    : '0';
  const tokenHeld = wallet && token ? tokenBalance(wallet, token.code, token.issuer) : '0';
  // A first deposit opens the wallet's LP token line: one owner reserve, and the deposit's network fee.
  const opensLpLine = new Decimal(lpBalance).isZero();
  /** The most of the base a deposit can take: XRP leaves the network fee and a new LP line's reserve. */
  const baseMax = (): string | null => {
    if (!wallet) return null;
    if (base !== 'XRP') return baseHeld;
    if (!reserves) return null;
    return dropsToXrp(spendableDrops(wallet, reserves, { transactions: 1, newObjects: opensLpLine ? 1 : 0 }));
  };
  /** XRP a deposit of `amount` needs from the available balance (the shared rule). */
  const xrpNeededFor = (amount: string): string => {
    const drops = parseXrpDrops(amount) ?? 0n;
    return dropsToXrp(
      reserves
        ? xrpNeeded({ amount: drops, transactions: 1, newObjects: opensLpLine ? 1 : 0 }, reserves)
        : drops,
    );
  };

  const debouncedLp = useDebounced(amountLp, ESTIMATE_DEBOUNCE_MS);
  const depositNow = {
    depositBase: deposit === 'DOUBLE' || side === 'base' ? amountBase : '',
    depositToken: deposit === 'DOUBLE' || side === 'token' ? amountToken : '',
  };
  const debouncedDeposit = useDebounced(depositNow, ESTIMATE_DEBOUNCE_MS);
  const price = useLpPrice({
    token,
    base,
    amountLp: debouncedLp,
    deposit: debouncedDeposit,
    body: {
      ...(positive(debouncedLp) ? { amountLp: debouncedLp } : {}),
      ...(action === 'ADD' && positive(debouncedDeposit.depositBase)
        ? { depositBase: debouncedDeposit.depositBase }
        : {}),
      ...(action === 'ADD' && positive(debouncedDeposit.depositToken)
        ? { depositToken: debouncedDeposit.depositToken }
        : {}),
    },
    enabled: view === 'actions',
  });
  const pool = price.data?.pool;

  // Both assets: the other amount follows the pool ratio, 300 ms after typing (cleared with it).
  const typed = edited === 'base' ? amountBase : amountToken;
  const settled = useDebounced(typed, ESTIMATE_DEBOUNCE_MS);
  // The pool refreshes every 5 s; the computed side follows the typed one, not each refresh, so the
  // effect reads the latest pool through a ref and runs on typing (and once the pool is known:
  // typing before it loaded still fills the other side).
  const poolRef = useRef(pool);
  poolRef.current = pool;
  const poolKnown = pool !== undefined;
  useEffect(() => {
    const pool = poolRef.current;
    if (deposit !== 'DOUBLE' || !pool) return;
    const other: Side = edited === 'base' ? 'token' : 'base';
    const setOther = (value: string) => dispatch({ type: 'amount', side: other, value, typed: false });
    if (!positive(settled)) return setOther('');
    const ratio =
      edited === 'base' ? new Decimal(pool.token).div(pool.base) : new Decimal(pool.base).div(pool.token);
    setOther(fixed6(new Decimal(settled).mul(ratio)));
  }, [settled, edited, deposit, poolKnown]);

  // A stale error goes as soon as the user changes something: only on input changes, not when the
  // status itself appears (so the status is read through a ref, not a dependency).
  const statusRef = useRef({ status, clearStatus });
  statusRef.current = { status, clearStatus };
  useEffect(() => {
    const { status, clearStatus } = statusRef.current;
    if (status && !status.ok) clearStatus();
  }, [amountBase, amountToken, amountLp, limitPrice, fee, action, deposit, withdraw, side, view]);

  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: liquidityKeys.all() });
    void queryClient.invalidateQueries({ queryKey: walletKeys.balances() });
  };

  // A self-custody wallet signs its deposit, withdrawal or vote itself (lib/signer).
  const signed = <T,>(route: string, body: Record<string, unknown>, key: KeyFor) =>
    runSigned<T>(
      wallet ?? { wallet_address: String(body.wallet) },
      () => apiPost(route, body, { idempotencyKey: key() }),
      key('signed'),
    );
  const add = useLedgerAction((body: Record<string, unknown>, key) =>
    signed<AddLiquidityResult>('/api/add-liquidity', body, key),
  );
  const remove = useLedgerAction((body: Record<string, unknown>, key) =>
    signed<RemoveLiquidityResult>('/api/remove-liquidity', body, key),
  );
  const vote = useLedgerAction((body: Record<string, unknown>, key) =>
    signed<AmmVoteResult>('/api/amm-vote', body, key),
  );
  const busy = add.busy || remove.busy || vote.busy;

  // The screen's own checks (spec 001 §5), then what the wallet holds: nothing is sent otherwise.
  const holdings = { [base]: baseHeld, token: tokenHeld } as Record<string, string>;
  const short = (needs: AssetAmount[]): Shortfall | null =>
    walletShortfall(needs, holdings, (a) => (a === 'token' ? unit('token') : a));
  const addReady = ((): Reason => {
    if (!market) return { ok: false, reason: missing };
    const needs: AssetAmount[] = [];
    if (deposit === 'DOUBLE') {
      if (!positive(amountBase) || !positive(amountToken))
        return { ok: false, reason: LIQUIDITY_MESSAGES.enterBoth };
      needs.push({ asset: base, amount: amountBase }, { asset: 'token', amount: amountToken });
    } else {
      const v = side === 'base' ? amountBase : amountToken;
      if (v !== '' && !/^\d*\.?\d+$/.test(v)) return { ok: false, reason: LIQUIDITY_MESSAGES.invalidToken };
      if (!positive(v)) return { ok: false, reason: LIQUIDITY_MESSAGES.enterAmount(unit(side)) };
      needs.push({ asset: side === 'base' ? base : 'token', amount: v });
    }
    // An XRP deposit also pays its network fee and a new LP line's reserve.
    const s = short(
      needs.map((n) => (n.asset === 'XRP' ? { asset: 'XRP', amount: xrpNeededFor(n.amount) } : n)),
    );
    return s ? { ok: false, reason: s.label, detail: s.detail } : { ok: true };
  })();
  const removeReady = ((): Reason => {
    if (!market) return { ok: false, reason: missing };
    if (!positive(amountLp)) return { ok: false, reason: LIQUIDITY_MESSAGES.enterLp };
    // A limit the shown expectation cannot meet: the ledger would refuse it and keep the network
    // fee, so it is not sent (issue 39; the server refuses it before signing with the same rule).
    const shown = price.data?.expected;
    if (withdraw === 'single' && limitPrice !== '' && shown) {
      const payout = side === 'base' ? shown.singleBase : shown.singleToken;
      const limit = singleWithdrawLimit(amountLp, limitPrice, payout);
      if (limit && !limit.met)
        return {
          ok: false,
          reason: 'Limit price cannot be met',
          detail: LIQUIDITY_MESSAGES.limitUnmet(payout, limit.needed, unit(side)).replace(
            ' Nothing was signed:',
            ' Nothing will be sent:',
          ),
        };
    }
    return { ok: true };
  })();
  const voteReady = ((): Reason => {
    if (!market) return { ok: false, reason: missing };
    if (fee.trim() === '' || fee === '.') return { ok: false, reason: LIQUIDITY_MESSAGES.fillAll };
    return { ok: true };
  })();

  const submitAdd = async () => {
    if (!addReady.ok || !market) return;
    try {
      const res = await add.run({
        ...market,
        baseAsset: base,
        mode: deposit === 'DOUBLE' ? 'double-asset' : 'single-asset',
        selectedAsset: deposit === 'DOUBLE' ? null : selectedAsset(side),
        amountXrp: deposit === 'DOUBLE' || side === 'base' ? amountBase : '',
        amountToken: deposit === 'DOUBLE' || side === 'token' ? amountToken : '',
      });
      if (!res) return;
      showStatus(LIQUIDITY_MESSAGES.added);
      dispatch({ type: 'added' });
      refresh();
    } catch (err) {
      showStatus(LIQUIDITY_MESSAGES.addFailedLine(userMessage(err, '')));
    }
  };
  const submitRemove = async () => {
    if (!removeReady.ok || !market) return;
    try {
      const res = await remove.run({
        ...market,
        baseAsset: base,
        amountLp,
        mode: withdraw,
        selectedAsset: withdraw === 'single' ? selectedAsset(side) : null,
        limitPrice: withdraw === 'single' ? limitPrice : '',
      });
      if (!res) return;
      showStatus(LIQUIDITY_MESSAGES.removed);
      dispatch({ type: 'removed' });
      refresh();
    } catch (err) {
      showStatus(LIQUIDITY_MESSAGES.removeFailedLine(userMessage(err, '')));
    }
  };
  const submitVote = async () => {
    if (!voteReady.ok || !market) return;
    try {
      const tradingFee = new Decimal(fee).mul(FEE_VOTE_MULTIPLIER).toDecimalPlaces(0).toNumber();
      const res = await vote.run({ ...market, baseAsset: base, tradingFee });
      if (!res) return;
      // The spec's sentence names the fee voted for; the pool's fee after it is the server's (read
      // from the pool at the vote's ledger: a vote moves the fee by its weight only, issue 39).
      showStatus(
        res.message
          ? `${LIQUIDITY_MESSAGES.voteSuccess(new Decimal(fee).toFixed())}. ${res.message}.`
          : LIQUIDITY_MESSAGES.voteSuccess(new Decimal(fee).toFixed()),
      );
      refresh();
    } catch (err) {
      showStatus(
        err instanceof ApiError && !hasStatus(err, 0)
          ? userMessage(err, LIQUIDITY_MESSAGES.voteFailed)
          : LIQUIDITY_MESSAGES.voteRetry,
      );
    }
  };

  // The LP amount is capped at the balance as it is typed (spec 001 §5).
  const setLp = (value: string) => dispatch({ type: 'lp', value, balance: lpBalance });

  const expected = price.data?.expected;
  const money = (v: string, s: Side) => `${formatMoney(v, s === 'base' ? base : 'token')} ${unit(s)}`;
  const expectedLine = !expected
    ? '—'
    : withdraw === 'double'
      ? `${money(expected.double.base, 'base')} + ${money(expected.double.token, 'token')}`
      : money(side === 'base' ? expected.singleBase : expected.singleToken, side);
  const lpOut = price.data?.deposit
    ? deposit === 'DOUBLE'
      ? price.data.deposit.double?.lpTokens
      : side === 'base'
        ? price.data.deposit.singleBase
        : price.data.deposit.singleToken
    : undefined;
  const depositSettled =
    debouncedDeposit.depositBase === depositNow.depositBase &&
    debouncedDeposit.depositToken === depositNow.depositToken;

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
    <AmountField
      id={id}
      label={`Amount (${unit(s)})`}
      value={value}
      onChange={onChange}
      decimals={AMOUNT_DECIMALS}
      action={
        <button
          type="button"
          className="btn-secondary max-button"
          aria-label={`Max ${unit(s)}`}
          disabled={!wallet || (s === 'base' && baseMax() === null)}
          onClick={() => {
            const max = s === 'base' ? baseMax() : tokenHeld;
            if (max !== null) onChange(fixed6(new Decimal(max)));
          }}
        >
          Max
        </button>
      }
    />
  );
  const assetChoice = (label: string) =>
    toggle<Side>(
      label,
      side,
      [
        ['base', base],
        ['token', unit('token')],
      ],
      (side) => dispatch({ type: 'side', side }),
    );
  const submit = (
    ready: Reason,
    running: boolean,
    runningLabel: string,
    label: string,
    onClick: () => void,
  ) => (
    <>
      <button
        type="button"
        className="swap-submit liquidity-submit"
        disabled={busy || !ready.ok}
        onClick={onClick}
      >
        {running ? runningLabel : ready.ok ? label : ready.reason}
      </button>
      {!ready.ok && ready.detail && (
        <p className="muted small submit-detail" data-testid="liquidity-submit-detail">
          {ready.detail}
        </p>
      )}
    </>
  );
  const figure = (v: string, asset: string, name: string): ReactNode => (
    <span className="figure" title={`${formatFull(v)} ${name}`}>
      {formatMoney(v, asset)} {name}
    </span>
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
        (view) => dispatch({ type: 'view', view }),
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
            (action) => dispatch({ type: 'action', action }),
          )}
          <p className="muted lp-balance" data-testid="lp-balance">
            LP token balance: <strong>{lpShown}</strong>
            {token && <span className="lp-name"> LP-{token.ticker}</span>}
          </p>

          {action === 'ADD' ? (
            <>
              <p className="muted small wallet-sides" data-testid="liquidity-balances">
                In this wallet: {figure(baseHeld, base, base)}
                {base === 'XRP' && ' available'} · {figure(tokenHeld, 'token', unit('token'))}
              </p>
              {toggle(
                'Deposit mode',
                deposit,
                [
                  ['SINGLE', 'Single Asset'],
                  ['DOUBLE', 'Both Assets'],
                ] as const,
                (deposit) => dispatch({ type: 'deposit', deposit }),
              )}
              {deposit === 'SINGLE' ? (
                <>
                  {assetChoice('Asset to deposit')}
                  {side === 'base'
                    ? amountField('liq-amount-base', 'base', amountBase, (value) =>
                        dispatch({ type: 'amount', side: 'base', value, typed: false }),
                      )
                    : amountField('liq-amount-token', 'token', amountToken, (value) =>
                        dispatch({ type: 'amount', side: 'token', value, typed: false }),
                      )}
                  <p className="muted liquidity-note">
                    The pool&apos;s trading fee applies to a single-asset deposit.
                  </p>
                </>
              ) : (
                <div className="liquidity-pair">
                  {amountField('liq-amount-base', 'base', amountBase, (value) =>
                    dispatch({ type: 'amount', side: 'base', value, typed: true }),
                  )}
                  {amountField('liq-amount-token', 'token', amountToken, (value) =>
                    dispatch({ type: 'amount', side: 'token', value, typed: true }),
                  )}
                </div>
              )}
              <p className="estimate" data-testid="lp-to-receive">
                LP tokens you will receive:{' '}
                <strong>
                  {lpOut && depositSettled && addReady.ok ? (
                    <span className="figure" title={formatFull(lpOut)}>
                      ≈ {formatToken(lpOut)} LP-{token?.ticker}
                    </span>
                  ) : (
                    '—'
                  )}
                </strong>
                {deposit === 'DOUBLE' && price.data?.deposit?.double && depositSettled && addReady.ok && (
                  <span className="muted small">
                    {' '}
                    (the pool takes {formatMoney(price.data.deposit.double.used.base, base)} {base} +{' '}
                    {formatToken(price.data.deposit.double.used.token)} {unit('token')} at its ratio)
                  </span>
                )}
              </p>
              {submit(addReady, add.busy, 'Adding…', 'Add Liquidity', () => void submitAdd())}
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
                // Changing the withdrawal type clears the limit price and the LP amount (spec 001 §4).
                (withdraw) => dispatch({ type: 'withdraw', withdraw }),
              )}
              <AmountField
                id="liq-amount-lp"
                label="LP tokens to withdraw"
                value={amountLp}
                onChange={setLp}
                decimals={15}
                presetsLabel="LP amount presets"
                presets={PERCENT_PRESETS.map((p) => ({
                  label: `${p}%`,
                  value: new Decimal(lpBalance).gt(0)
                    ? new Decimal(lpBalance)
                        // 100% withdraws 99.99% (spec 001 §9): never the pool's last token.
                        .mul(p === 100 ? LP_FULL_REMOVAL_FRACTION : p / 100)
                        .toSignificantDigits(15, Decimal.ROUND_DOWN)
                        .toFixed()
                    : null,
                }))}
              />
              {withdraw === 'single' && (
                <>
                  {assetChoice('Asset to withdraw')}
                  <p className="muted" data-testid="lp-price">
                    LP price:{' '}
                    {price.data ? (
                      <span
                        title={formatFull(side === 'base' ? price.data.lpPerBase : price.data.lpPerToken)}
                      >
                        {formatPrice(side === 'base' ? price.data.lpPerBase : price.data.lpPerToken)} LP per{' '}
                        {unit(side)}
                      </span>
                    ) : (
                      '—'
                    )}
                  </p>
                  <AmountField
                    id="liq-limit"
                    label={`Limit price (LP tokens per ${unit(side)}, optional)`}
                    placeholder="No limit"
                    value={limitPrice}
                    onChange={(value) => dispatch({ type: 'limitPrice', value })}
                    decimals={15}
                  />
                  <p className="muted liquidity-note" role="note">
                    Single-asset withdrawals incur a fee because they change the pool balance.
                  </p>
                </>
              )}
              <p className="estimate" data-testid="expected-withdrawal">
                Expected Withdrawal: <strong>{positive(amountLp) ? expectedLine : '—'}</strong>
              </p>
              {submit(removeReady, remove.busy, 'Removing…', 'Remove Liquidity', () => void submitRemove())}
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
              min={FEE_VOTE_MIN_PERCENT}
              max={FEE_VOTE_MAX_PERCENT}
              step={FEE_VOTE_STEP_PERCENT}
              placeholder="0.000 – 1.000"
              value={fee}
              // Only 0 to 1 (step 0.001): anything else clears the field (liquidity-form.ts).
              onChange={(e) => dispatch({ type: 'fee', value: e.target.value })}
              onKeyDown={(e) => e.key === 'Enter' && e.preventDefault()}
            />
          </div>
          {submit(voteReady, vote.busy, 'Submitting…', 'Submit Vote', () => void submitVote())}
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
