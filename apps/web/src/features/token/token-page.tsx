import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import {
  LIVE_PRICE_DEBOUNCE_MS,
  priceChanges,
  tokenTabTitle,
  usableChart,
  type NewTrade,
  type TokenView,
  type TradeView,
  Decimal,
} from '@ledgerpad/shared';
import { PageSkeleton } from '../../components/page-skeleton';
import { tokenKeys } from './keys';
import {
  useBondingCurve,
  useBondingMarketCap,
  useChangeHistory,
  useOrderBook,
  useRecentTrades,
  useRisk,
  useIssuerTokens,
  useTokenDetails,
  useTokenStats,
} from './api';
import { AboutPanel } from './about-panel';
import { BondingPanel } from './bonding-panel';
import { OrderBook } from './order-book';
import { PriceChart, type PriceChartHandle } from './price-chart';
import { RecentTrades } from './recent-trades';
import { RewardSplitCard } from './reward-split-card';
import { RiskPanel } from './risk-panel';
import { StatsBar } from './stats-bar';
import { TokenChooser } from './token-chooser';
import { TokenHeader } from './token-header';
import { useLiveTrades } from './use-live-trades';
import './token.css';

const MAX_TRADES = 30;

/** What the app puts beside the chart for a token (the swap box, issue 39), if anything. */
export type TokenTradeSlot = (token: TokenView) => ReactNode;

/**
 * /token/{issuerAddress}[/{currency}]: a token's market on the ledger, public (spec 000 §2, 001 §4).
 * One page per token (issue 35): an issuer listing several tokens gets a chooser at /token/{issuer}.
 */
export function TokenPage({ trade }: { trade?: TokenTradeSlot } = {}) {
  const { issuerAddress = '', currency } = useParams();
  const details = useTokenDetails(issuerAddress, currency);
  const all = useIssuerTokens(issuerAddress, currency === undefined);

  if (details.isPending || (currency === undefined && all.isPending)) return <PageSkeleton />;
  if (currency === undefined && all.data && all.data.length > 1)
    return <TokenChooser issuer={issuerAddress} tokens={all.data} />;
  if (details.isError) {
    const status = (details.error as { status?: number }).status;
    const notFound = status === 404 || status === 400;
    return (
      <section className="panel token-missing" role="alert">
        <h1>{notFound ? 'Token not found' : 'Failed to fetch token details'}</h1>
        <p className="muted">
          {notFound
            ? currency
              ? 'This issuer has no listed token with that currency.'
              : 'No listed token has this issuer address.'
            : 'The token could not be loaded. Check your connection and try again.'}
        </p>
        {notFound ? (
          <Link className="button-link" to="/">
            Back to the token list
          </Link>
        ) : (
          <button type="button" className="btn-secondary" onClick={() => void details.refetch()}>
            Retry
          </button>
        )}
      </section>
    );
  }
  return <TokenMarket key={`${issuerAddress}|${details.data.currency}`} token={details.data} trade={trade} />;
}

function TokenMarket({
  token,
  trade,
}: {
  token: NonNullable<ReturnType<typeof useTokenDetails>['data']>;
  trade?: TokenTradeSlot;
}) {
  const issuer = token.issuer_address;
  const currency = token.currency;
  const quote = token.liquidity_pair === 'RLUSD' ? 'RLUSD' : 'XRP';
  const queryClient = useQueryClient();
  const stats = useTokenStats(issuer, currency);
  const history = useChangeHistory(issuer, currency);
  const book = useOrderBook(issuer, currency);
  const trades = useRecentTrades(issuer, currency);
  const risk = useRisk(issuer, currency);
  const chart = useRef<PriceChartHandle>(null);
  const [liveTrades, setLiveTrades] = useState<TradeView[]>([]);

  // The ledger-derived figures follow each trade: the first of a burst at once (the curve's progress
  // and market cap within a second of the socket event), then at most every 500 ms while it lasts.
  const followTrades = useThrottled(
    useCallback(() => {
      void queryClient.invalidateQueries({ queryKey: tokenKeys.bonding(issuer) });
      void queryClient.invalidateQueries({ queryKey: tokenKeys.bondingCap(token.id) });
      void queryClient.invalidateQueries({ queryKey: tokenKeys.stats(issuer) });
      void queryClient.invalidateQueries({ queryKey: tokenKeys.book(issuer) });
    }, [queryClient, issuer, token.id]),
    LIVE_PRICE_DEBOUNCE_MS,
  );

  const onTrade = useCallback(
    (t: NewTrade) => {
      chart.current?.addTrade(t);
      followTrades();
      if (!t.hash) return;
      const amount = t.amount ?? '0';
      const view: TradeView = {
        hash: t.hash,
        time: t.time ?? Date.now(),
        ledgerIndex: 0,
        account: '',
        side: t.type,
        price: t.price,
        tokenAmount: amount,
        quoteAmount: new Decimal(t.price).mul(amount).toSignificantDigits(15).toFixed(),
        quote,
      };
      setLiveTrades((list) => [view, ...list.filter((x) => x.hash !== view.hash)].slice(0, MAX_TRADES));
    },
    [quote, followTrades],
  );
  const live = useLiveTrades(currency, issuer, onTrade);
  // Each token's tab says which token it is (issue 39: every one read 'Token · Ledgerpad').
  useEffect(() => {
    document.title = tokenTabTitle(token.name, token.ticker);
  }, [token.name, token.ticker]);

  const lastClose = useMemo(() => {
    const d = usableChart(history.data);
    return d ? String(d.c[d.c.length - 1]) : null;
  }, [history.data]);
  // One price (issue 39): the headline is the token's price as the list, market cap and API define
  // it — the pool's spot, or the curve's next offer — from the same snapshot (GET .../stats, read
  // again after each trade); the last trade's own average price is shown beside it, labelled 'last'.
  const spot = stats.data ? (quote === 'RLUSD' ? stats.data.priceInUSD : stats.data.priceInXRP) : null;
  const lastTrade = live.price ?? lastClose;
  // The strip measures from the same price the headline shows (the list's 24h column does too, from
  // the same candles): after a buy the last trade's average sits below the spot, and measuring from
  // it read '1d +0.00%' beside the list's '+9.45%' for one token (issue 39).
  const changes = useMemo(
    () =>
      priceChanges(
        history.isError ? undefined : history.data,
        Math.floor(Date.now() / 1000),
        300,
        spot ?? live.price,
      ),
    [history.data, history.isError, spot, live.price],
  );

  const tradeRows = useMemo(() => {
    const known = new Set(liveTrades.map((t) => t.hash));
    return [...liveTrades, ...(trades.data ?? []).filter((t) => !known.has(t.hash))].slice(0, MAX_TRADES);
  }, [liveTrades, trades.data]);

  const bonding = token.is_bonding_curve && token.bonding_active;
  const curve = useBondingCurve(issuer, currency, token.is_bonding_curve);
  const bondingCap = useBondingMarketCap(token.id, bonding);
  // The curve graduated while the page was open: the token reads 'Graduated' and trades in its pool.
  const graduatedNow = bonding && curve.data?.status === 'graduated';
  useEffect(() => {
    if (!graduatedNow) return;
    void queryClient.invalidateQueries({ queryKey: tokenKeys.details(issuer) });
    void queryClient.invalidateQueries({ queryKey: tokenKeys.stats(issuer) });
  }, [graduatedNow, issuer, queryClient]);
  // Spec 000 §4: on an active curve the market cap comes from the bonding endpoint.
  const shownStats =
    bonding && stats.data && bondingCap.data
      ? { ...stats.data, marketCapInUSD: bondingCap.data.market_cap_usd }
      : stats.data;
  return (
    <div className="token-page">
      <TokenHeader
        token={token}
        price={spot}
        lastTrade={lastTrade}
        quote={quote}
        changes={changes}
        changesLoading={history.isPending}
      />
      <div className="token-actions">
        <StatsBar stats={shownStats} bonding={bonding} />
        <Link
          className="button-link trade-button"
          to={`/swap?${new URLSearchParams({ issuer, currency }).toString()}`}
        >
          Open in Swap
        </Link>
      </div>
      {token.is_bonding_curve && (
        <BondingPanel
          curve={curve.data}
          loading={curve.isPending}
          failed={curve.isError}
          currentLedger={stats.data?.ledger}
        />
      )}
      <div className="token-grid">
        <div className="tp-main">
          <PriceChart ref={chart} currency={currency} issuer={issuer} quote={quote} flash={live.flash} />
          <RecentTrades trades={tradeRows} loading={trades.isPending} failed={trades.isError} />
        </div>
        <aside className="tp-side">
          {trade?.(token)}
          <OrderBook book={book.data} loading={book.isPending} failed={book.isError} quote={quote} />
          <RiskPanel risk={risk.data} loading={risk.isPending} failed={risk.isError} />
          <RewardSplitCard tokenId={token.id} />
          <AboutPanel token={token} />
        </aside>
      </div>
    </div>
  );
}

/**
 * `fn` at once, then at most once per `ms` while calls keep coming (the last call always runs): a
 * burst of trades reads the figures again without a request per trade.
 */
function useThrottled(fn: () => void, ms: number): () => void {
  const state = useRef<{ timer?: ReturnType<typeof setTimeout>; again: boolean }>({ again: false });
  useEffect(() => () => clearTimeout(state.current.timer), []);
  return useCallback(() => {
    const s = state.current;
    if (s.timer) {
      s.again = true;
      return;
    }
    fn();
    const tick = () => {
      if (s.again) {
        s.again = false;
        fn();
        s.timer = setTimeout(tick, ms);
      } else s.timer = undefined;
    };
    s.timer = setTimeout(tick, ms);
  }, [fn, ms]);
}
