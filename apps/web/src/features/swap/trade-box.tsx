import { useEffect, useMemo, useRef, type Dispatch, type FormEvent } from 'react';
import {
  allInAmount,
  AMOUNT_DECIMALS,
  ESTIMATE_DEBOUNCE_MS,
  ORDER_MESSAGES,
  PERCENT_PRESETS,
  RLUSD_CURRENCY_HEX,
  SWAP_MESSAGES,
  XRP_PRESETS,
  allInDrops,
  slippageSchema,
  dropsToXrp,
  formatMoney,
  formatPrice,
  formatFull,
  tradeAmountSchema,
  tradeDisclosure,
  truncateDecimals,
  Decimal,
  type AssetAmount,
  type LedgerReserves,
  type QuoteAsset,
  type TradeDisclosure,
  impactLevelRank,
  type WalletBalance,
} from '@ledgerpad/shared';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { userMessage } from '../../lib/api';
import { walletLabel } from '../../lib/wallet-balances';
import { availableDrops, hasTrustLine, spendableDrops, tokenBalance } from '../../lib/wallet-funds';
import { useBatchQuote, useQuote, useTradeAction, type TradeRequest, type WalletOutcome } from './api';
import { randomAmounts, randomRange } from './batch';
import { isRandomized, sideOf, type SwapAction, type SwapForm, type TokenChoice } from './form';
import { StatusLine, useDebounced, useResultLine } from './hooks';
import { AmountField } from '../../components/amount-field';
import { AntiSniperLine } from './panels/anti-sniper';
import { BatchDisclosure, Disclosure, type BatchRow } from './panels/disclosure';
import { SubmitButton } from './panels/submit-button';
import { TradeResults } from './panels/trade-results';
import { estimatedNeeds, holdingsOf, readiness, walletShortfall, type QuoteState } from './readiness';

// The trade part of /swap for market and limit orders and XRP ⇄ RLUSD (one component: they differ
// only in what is traded against what). It discloses everything before the click, says on the
// button why it cannot send yet, and shows the result next to the button.

export interface TradeBoxProps {
  form: SwapForm;
  dispatch: Dispatch<SwapAction>;
  /** The wallet whose quote is shown (the selected one). */
  wallet: WalletBalance | undefined;
  /** The wallets the order goes out from (the ticked ones in multi-wallet mode). */
  targets: WalletBalance[];
  /** What is traded: the token (RLUSD itself in XRP ⇄ RLUSD mode) and the asset it is priced in. */
  token: TokenChoice | null;
  quoteAsset: QuoteAsset;
  rlusdIssuer: string | null;
  reserves: LedgerReserves | undefined;
  /** The platform's fee rate (a user's own rate arrives with the quote). */
  feePercent: string | undefined;
  /** The quote asset's market price per token (limit orders' 'Market price'). */
  marketPrice: string | null;
  marketPriceLoading: boolean;
  /** Saves the slippage the user typed (on blur), as their preference. */
  onSlippageSaved: (slippage: string) => void;
}

const BUSY: Record<'market' | 'limit' | 'rlusd', string> = {
  market: 'Swapping…',
  limit: 'Placing…',
  rlusd: 'Swapping…',
};

export function TradeBox(p: TradeBoxProps) {
  const { form, dispatch, wallet, targets, token, quoteAsset } = p;
  const side = sideOf(form);
  const kind = form.mode === 'limit' ? 'limit' : 'market';
  const randomized = isRandomized(form);
  const trade = useTradeAction();
  const [status, showStatus, clearStatus] = useResultLine();
  const [received, showReceived] = useResultLine();

  const assetName = (asset: string) =>
    asset === 'XRP' || asset === 'RLUSD' ? asset : token && asset === token.code ? token.ticker : asset;

  // A changed input makes a shown error stale: it goes (a success keeps fading on its own). The
  // amount the screen clears itself after an order is not such a change: its result stays.
  const clearedBySend = useRef(false);
  // Read through a ref: the effect runs on input changes, not when the status itself appears.
  const statusRef = useRef({ status, clearStatus });
  statusRef.current = { status, clearStatus };
  useEffect(() => {
    if (clearedBySend.current) {
      clearedBySend.current = false;
      return;
    }
    const { status, clearStatus } = statusRef.current;
    if (status && !status.ok) clearStatus();
  }, [form.amount, form.price, form.token, form.walletAddress, form.mode, form.tab, form.ticked]);

  // What the wallets hold and what the order needs, before any quote (amount, fee, reserves).
  const needsOf = (w: WalletBalance, amount: string): AssetAmount[] =>
    token
      ? estimatedNeeds(w, {
          kind,
          side,
          quoteAsset,
          token,
          amount,
          feePercent: p.feePercent,
          reserves: p.reserves,
        })
      : [];
  const validAmount = tradeAmountSchema.safeParse(form.amount).success;
  // A short loop over the chosen wallets, worked out each render (its inputs change with every render).
  const preShort = (() => {
    if (!token) return null;
    for (const w of targets) {
      const amount = randomized ? form.range.max : form.amount;
      if (!tradeAmountSchema.safeParse(amount).success) continue;
      const short = walletShortfall(needsOf(w, amount), holdingsOf(w, token, p.rlusdIssuer), assetName);
      if (short) return { wallet: w, short };
    }
    return null;
  })();

  // The quote: the trade simulated on the ledger from the selected wallet (single-wallet market
  // orders). Multi-wallet market orders get each wallet's own quote after the wallets before it
  // (the batch quote, issue 39): amount, fee, minimum and new trust line shown per wallet.
  const debounced = useDebounced(form.amount, ESTIMATE_DEBOUNCE_MS);
  const batchMode = form.multi && kind === 'market' && form.mode !== 'rlusd';
  const wantsQuote = kind === 'market' && !batchMode && !randomized && wallet !== undefined && token !== null;
  // A randomized buy's amounts are drawn once per range and set of wallets, before the click: the
  // amounts shown are the amounts sent.
  const drawn = useMemo(() => {
    if (!randomized) return null;
    const range = randomRange(form.range.min, form.range.max);
    return typeof range === 'string' ? null : randomAmounts(range, targets.length);
  }, [randomized, form.range.min, form.range.max, targets.length]);
  const orderAmounts: string[] | null = randomized ? drawn : targets.map(() => form.amount);
  const batchQuote = useBatchQuote(
    batchMode &&
      token &&
      orderAmounts &&
      !preShort &&
      (randomized || (validAmount && debounced === form.amount)) &&
      slippageSchema.safeParse(form.slippage).success
      ? {
          issuer: token.issuer,
          token: token.code,
          side,
          slippage: form.slippage,
          orders: targets.map((w, i) => ({ walletAddress: w.wallet_address, amount: orderAmounts[i]! })),
        }
      : null,
  );
  const batchRows: BatchRow[] | null =
    batchMode && token && batchQuote.data && !batchQuote.isPlaceholderData
      ? batchQuote.data.wallets.map((item) => ({
          wallet: targets.find((w) => w.wallet_address === item.walletAddress),
          address: item.walletAddress,
          amount: item.amount,
          disclosure: item.quote ? tradeDisclosure(side, token.code, item.quote, form.slippage || '0') : null,
          error: item.error ?? null,
        }))
      : null;
  const batchFresh =
    batchRows !== null &&
    batchRows.length === targets.length &&
    batchRows.every((r, i) => r.address === targets[i]!.wallet_address && r.amount === orderAmounts?.[i]);
  const quote = useQuote(
    wantsQuote && validAmount && !preShort && tradeAmountSchema.safeParse(debounced).success
      ? {
          wallet: wallet.wallet_address,
          issuer: token.issuer,
          token: token.code,
          side,
          amount: debounced,
          ...(form.mode === 'rlusd' ? { baseAsset: 'XRP' as const } : {}),
        }
      : null,
  );
  const fresh = debounced === form.amount && quote.data !== undefined && !quote.isPlaceholderData;
  // In a batch the warnings follow its worst wallet (the last ones meet the most impact).
  const batchWorst =
    batchFresh && batchRows.every((r) => r.disclosure)
      ? batchRows
          .map((r) => r.disclosure!)
          .reduce((a, b) => (impactLevelRank(b.level) > impactLevelRank(a.level) ? b : a))
      : null;
  const batchError = batchFresh ? batchRows.find((r) => r.error) : undefined;
  const disclosure: TradeDisclosure | null =
    wantsQuote && fresh && token && quote.data
      ? tradeDisclosure(side, token.code, quote.data, form.slippage || '0')
      : batchWorst;
  const quoteState: QuoteState = batchError
    ? {
        state: 'failed',
        message: `${batchError.wallet ? walletLabel(batchError.wallet) : batchError.address}: ${batchError.error}`,
      }
    : disclosure
      ? { state: 'ready', disclosure }
      : batchMode && batchQuote.error
        ? { state: 'failed', message: userMessage(batchQuote.error, SWAP_MESSAGES.insufficientLiquidity) }
        : quote.error && debounced === form.amount
          ? {
              state: 'failed',
              message: userMessage(quote.error, SWAP_MESSAGES.insufficientLiquidity),
            }
          : { state: 'pending' };

  // With the quote, the exact needs (the user's own fee, the network fees, the trust line's reserve).
  const exactShort = (() => {
    if (!token) return null;
    if (batchFresh) {
      for (const r of batchRows) {
        if (!r.wallet || !r.disclosure) continue;
        const short = walletShortfall(
          r.disclosure.totalPay,
          holdingsOf(r.wallet, token, p.rlusdIssuer),
          assetName,
        );
        if (short) return { ...short, detail: `${walletLabel(r.wallet)}: ${short.detail}` };
      }
      return null;
    }
    return disclosure && wallet && !batchMode
      ? walletShortfall(disclosure.totalPay, holdingsOf(wallet, token, p.rlusdIssuer), assetName)
      : null;
  })();
  const short = preShort
    ? {
        ...preShort.short,
        detail: form.multi
          ? `${walletLabel(preShort.wallet)}: ${preShort.short.detail}`
          : preShort.short.detail,
      }
    : exactShort;

  const ready = readiness({
    hasWallet: wallet !== undefined,
    multi: form.multi,
    targets: targets.length,
    hasToken: token !== null,
    randomized,
    range: form.range,
    amount: form.amount,
    kind,
    price: form.price,
    slippage: form.slippage,
    short,
    needsQuote: wantsQuote || batchMode,
    quote: quoteState,
    impactAccepted: form.impactAccepted,
  });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!ready.sendable || !token || trade.busy) return;
    // Above 15% impact the trade is its own step: a dialog that a double click can't confirm.
    if (disclosure?.level === 'confirm') return dispatch({ type: 'armImpact' });
    void send();
  };

  const send = async () => {
    if (!ready.sendable || !token || trade.busy) return;
    if (!orderAmounts) return;
    // A batch sends what it showed: each wallet's amount and the estimate its minimum came from.
    if (batchMode && !batchFresh) return;
    const request: TradeRequest = {
      kind,
      side,
      issuer: token.issuer,
      token: token.code,
      slippage: form.slippage,
      ...(form.mode === 'rlusd' ? { baseAsset: 'XRP' as const } : {}),
      ...(kind === 'limit' ? { price: form.price } : {}),
      orders: targets.map((w, i) => ({
        wallet: w,
        amount: orderAmounts[i]!,
        // The estimate the user saw (this wallet's, this amount): the ledger refuses to deliver
        // less than it minus the slippage.
        ...(batchMode && batchRows?.[i]?.disclosure
          ? { expected: batchRows[i]!.disclosure!.receive }
          : !batchMode && w === wallet && disclosure
            ? { expected: disclosure.receive }
            : {}),
      })),
      // Each wallet's estimate is after the ones before it: they go one after another, in order.
      ...(batchMode ? { sequential: true } : {}),
    };
    clearStatus();
    let outcomes: WalletOutcome[] | undefined;
    try {
      outcomes = await trade.run(request);
    } catch {
      return showStatus(kind === 'limit' ? SWAP_MESSAGES.limitFailed : SWAP_MESSAGES.swapRetry, false);
    }
    if (!outcomes) return;
    const done = outcomes.filter((o) => o.ok);
    if (form.multi) {
      showStatus(
        <TradeResults kind={kind} side={side} token={token.code} outcomes={outcomes} assetName={assetName} />,
        done.length === outcomes.length,
      );
    } else {
      const one = outcomes[0]!;
      if (!one.ok) showStatus(one.message, false);
      else showStatus(one.order ? ORDER_MESSAGES.placed(1) : (one.swap?.message ?? ''), true);
    }
    const swaps = done.flatMap((o) => (o.ok && o.swap ? [o.swap] : []));
    if (swaps.length > 0) {
      const got = side === 'BUY' ? token.code : quoteAsset;
      // Net (issue 39): a sell's platform fee comes out of what it received, and so do the network
      // fees when that is XRP (each wallet's, as its quote disclosed them). A buy's fees were paid
      // on top: what it received is what it keeps.
      const networkFees = done.reduce((sum, o) => {
        const i = targets.indexOf(o.wallet);
        const d = batchMode ? batchRows?.[i]?.disclosure : disclosure;
        return sum.plus(o.ok && o.swap && d ? d.networkFee : 0);
      }, new Decimal(0));
      const total = swaps.reduce(
        (sum, s) => sum.plus(s.received).minus(side === 'SELL' ? s.fee : 0),
        new Decimal(0),
      );
      const net = got === 'XRP' ? total.minus(networkFees) : total;
      const after =
        side === 'SELL' ? ` after the platform fee${got === 'XRP' ? ' and network fees' : ''}` : '';
      showReceived(
        `You received ${formatMoney(Decimal.max(0, net).toFixed(), got)} ${assetName(got)}${after}`,
        true,
      );
    }
    if (done.length > 0) {
      clearedBySend.current = form.amount !== '' || form.range.min !== '' || form.range.max !== '';
      dispatch({ type: 'sent' });
    }
  };

  // Presets (spec 001 §2): a buy spends 10, 50, 100 or ALL IN; a sell 25–100% of the holding.
  const held = wallet && token ? tokenBalance(wallet, token.code, token.issuer) : '0';
  const quoteHeld =
    wallet && quoteAsset === 'RLUSD' && p.rlusdIssuer
      ? tokenBalance(wallet, RLUSD_CURRENCY_HEX, p.rlusdIssuer)
      : '0';
  const allIn = (): string | null => {
    if (!wallet || !token) return null;
    if (quoteAsset === 'RLUSD') {
      const most = allInAmount(quoteHeld, p.feePercent ?? '0');
      return most.gt(0) ? truncateDecimals(most, AMOUNT_DECIMALS) : null;
    }
    // 99.2% of what the wallet can spend on this buy, leaving the fee, the network fees and a new
    // trust line's reserve (the shared rule, docs/money.md).
    const opensLine = !hasTrustLine(wallet, token.code, token.issuer);
    const spendable = p.reserves
      ? spendableDrops(wallet, p.reserves, { transactions: opensLine ? 3 : 2, newObjects: opensLine ? 1 : 0 })
      : availableDrops(wallet);
    const drops = allInDrops(spendable, p.feePercent ?? '0');
    return drops > 0n ? dropsToXrp(drops) : null;
  };
  const percentOf = (total: string, percent: number) =>
    new Decimal(total).gt(0)
      ? truncateDecimals(new Decimal(total).mul(percent).div(100), AMOUNT_DECIMALS)
      : null;
  const presets =
    side === 'BUY'
      ? [
          ...XRP_PRESETS.map((v) => ({ label: `${v} ${quoteAsset}`, value: String(v) })),
          ...(kind === 'limit' ? [] : [{ label: 'ALL IN', value: allIn() }]),
        ]
      : [
          ...PERCENT_PRESETS.map((v) => ({ label: `${v}%`, value: percentOf(held, v) })),
          ...(form.mode === 'rlusd' ? [{ label: 'ALL IN', value: percentOf(held, 100) }] : []),
        ];
  const balanceLine = wallet
    ? side === 'BUY'
      ? quoteAsset === 'XRP'
        ? `Available: ${formatMoney(dropsToXrp(availableDrops(wallet)), 'XRP')} XRP`
        : `Balance: ${formatMoney(quoteHeld, 'RLUSD')} RLUSD`
      : token
        ? `Balance: ${formatMoney(held, token.code)} ${token.ticker}`
        : null
    : null;

  const limitEstimate =
    kind === 'limit' && validAmount && /^\d+(\.\d+)?$/.test(form.price) && new Decimal(form.price).gt(0)
      ? truncateDecimals(
          side === 'BUY'
            ? new Decimal(form.amount).div(form.price)
            : new Decimal(form.amount).mul(form.price),
          AMOUNT_DECIMALS,
        )
      : null;

  const label =
    form.mode === 'rlusd'
      ? 'Swap'
      : `${kind === 'limit' ? 'Place ' : ''}${side === 'BUY' ? 'Buy' : 'Sell'}${kind === 'limit' ? ' Order' : ''}${form.multi ? ` (${targets.length} wallets)` : ''}`;

  return (
    <form className="trade-box" onSubmit={submit} noValidate>
      {randomized ? (
        <div className="random-range">
          <AmountField
            id="swap-min"
            label={`Min (${quoteAsset})`}
            value={form.range.min}
            onChange={(v) => dispatch({ type: 'range', min: v })}
          />
          <AmountField
            id="swap-max"
            label={`Max (${quoteAsset})`}
            value={form.range.max}
            onChange={(v) => dispatch({ type: 'range', max: v })}
          />
        </div>
      ) : (
        <AmountField
          id={form.mode === 'rlusd' ? 'rlusd-amount' : 'swap-amount'}
          label={`Amount (${side === 'BUY' ? quoteAsset : (token?.ticker ?? 'tokens')})`}
          value={form.amount}
          onChange={(v) => dispatch({ type: 'amount', value: v })}
          presets={presets}
          balance={balanceLine}
        />
      )}

      {kind === 'limit' ? (
        <AmountField
          id="swap-price"
          label={`Limit price (${quoteAsset} per token)`}
          value={form.price}
          onChange={(v) => dispatch({ type: 'price', value: v })}
          decimals={15}
        >
          <p className="muted small" data-testid="market-price">
            Market price:{' '}
            {p.marketPriceLoading && token ? (
              'Loading...'
            ) : p.marketPrice ? (
              <span title={formatFull(p.marketPrice)}>
                {formatPrice(p.marketPrice)} {quoteAsset}
              </span>
            ) : (
              'N/A'
            )}
            {p.marketPrice && (
              <button
                type="button"
                className="link-button"
                onClick={() => dispatch({ type: 'price', value: p.marketPrice! })}
              >
                Use
              </button>
            )}
          </p>
        </AmountField>
      ) : (
        <div className="field slippage-field">
          <label className="field-label" htmlFor="swap-slippage">
            Slippage (%)
          </label>
          <input
            id="swap-slippage"
            className="input"
            inputMode="decimal"
            value={form.slippage}
            onBlur={() => p.onSlippageSaved(form.slippage)}
            onChange={(e) => dispatch({ type: 'slippage', value: e.target.value })}
          />
        </div>
      )}

      <div
        className="estimate"
        data-testid={form.mode === 'rlusd' ? 'rlusd-estimate' : 'estimate'}
        aria-live="polite"
      >
        {kind === 'limit' ? (
          limitEstimate && token ? (
            <p>
              {side === 'BUY' ? 'You get' : 'You receive'} when filled:{' '}
              <strong className="figure">
                {formatMoney(limitEstimate, side === 'BUY' ? token.code : quoteAsset)}{' '}
                {side === 'BUY' ? token.ticker : quoteAsset}
              </strong>
              <span className="muted small">
                {' '}
                · the platform fee ({p.feePercent ?? '—'}%) is charged on what fills; a resting order locks a
                reserve.
              </span>
            </p>
          ) : (
            <p className="muted">Choose a token, an amount and a price.</p>
          )
        ) : batchMode && batchFresh ? (
          <BatchDisclosure rows={batchRows} assetName={assetName} slippage={form.slippage} />
        ) : randomized ? (
          <p className="muted">
            Each ticked wallet buys a random amount between the min and the max
            {orderAmounts ? ': estimating each wallet…' : '.'}
          </p>
        ) : !token || !validAmount ? (
          <p className="muted">Choose a token and an amount to see what you pay and receive.</p>
        ) : disclosure ? (
          <>
            <Disclosure
              d={disclosure}
              assetName={assetName}
              slippage={form.slippage}
              wallets={form.multi ? targets.length : 1}
            />
            {quote.data?.antiSniper && (
              <AntiSniperLine
                a={quote.data.antiSniper}
                asset={disclosure.feeAsset}
                assetName={assetName}
                at={quote.dataUpdatedAt}
              />
            )}
          </>
        ) : quoteState.state === 'failed' ? (
          <p className="error">{quoteState.message}</p>
        ) : preShort || exactShort ? (
          <p className="muted">Not enough to estimate this amount.</p>
        ) : (
          <p className="muted">Estimating…</p>
        )}
      </div>

      <SubmitButton
        readiness={ready}
        label={label}
        busyLabel={BUSY[form.mode]}
        busy={trade.busy}
        tone={side === 'BUY' ? 'buy' : 'sell'}
        disclosure={disclosure}
        accepted={form.impactAccepted}
        onAccept={(on) => dispatch({ type: 'acceptImpact', on })}
      />
      {received && (
        <p className={`received${received.fading ? ' fading' : ''}`} data-testid="you-received">
          {received.text}
        </p>
      )}
      <StatusLine status={status} testId="trade-status" />
      {disclosure?.level === 'confirm' && (
        <ConfirmDialog
          open={form.impactArmed}
          onOpenChange={(open) => dispatch({ type: open ? 'armImpact' : 'disarmImpact' })}
          title="High price impact"
          confirmLabel={`Confirm: ${label.toLowerCase()} at ${disclosure.priceImpactPercent}% price impact`}
          busyLabel={BUSY[form.mode]}
          busy={trade.busy}
          danger
          onConfirm={() => {
            dispatch({ type: 'disarmImpact' });
            void send();
          }}
        >
          <p>
            This trade moves the price by {disclosure.priceImpactPercent}%: you may get far less than the
            price shown before it.
          </p>
        </ConfirmDialog>
      )}
    </form>
  );
}
