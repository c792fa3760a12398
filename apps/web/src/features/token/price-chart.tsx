import { useCallback, useEffect, useImperativeHandle, useRef, useState, type Ref } from 'react';
import {
  CandlestickSeries,
  ColorType,
  createChart,
  HistogramSeries,
  type IChartApi,
  type ISeriesApi,
  type UTCTimestamp,
} from 'lightweight-charts';
import {
  CHART_RESOLUTIONS,
  formatPrice,
  usableChart,
  type ChartResolution,
  type NewTrade,
} from '@ledgerpad/shared';
import { fetchHistory } from './api';

// The candlestick + volume chart (TradingView lightweight-charts) with a resolution switcher. Bars
// come from the UDF history call; live trades extend the last bar (or open a new one) at once, so
// the chart moves with the ledger without refetching.

const BARS = 300;
const UP = '#1fc77e';
const DOWN = '#ff5470';

export interface PriceChartHandle {
  addTrade(trade: NewTrade): void;
}

interface Bar {
  time: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
}

/** Enough decimals to show 4 significant digits of the smallest price on screen. */
function precisionFor(price: number): number {
  if (!(price > 0)) return 2;
  return Math.min(14, Math.max(2, 3 - Math.floor(Math.log10(price))));
}

/**
 * lightweight-charts draws no sensible scale past 9 or so decimals (its issue #841): a token priced
 * at 1e-8 XRP is drawn in units 10^k times larger, and its labels divide back.
 */
const MAX_CHART_DECIMALS = 6;
function chartScale(precision: number): { factor: number; inner: number } {
  const k = Math.max(0, precision - MAX_CHART_DECIMALS);
  return { factor: 10 ** k, inner: precision - k };
}

/**
 * A price-axis label: the drawn value divided back to the price, in the one price format every
 * other figure of the page uses (subscript zeros: '0.0₅8' beside the header's '0.0₅8123', not
 * '0.000008000' — issue 39's one number format).
 */
export function chartPriceLabel(drawnPrice: number, factor: number, precision: number): string {
  return formatPrice((drawnPrice / factor).toFixed(precision));
}

export function PriceChart({
  currency,
  issuer,
  quote,
  flash,
  ref,
}: {
  currency: string;
  issuer: string;
  quote: 'XRP' | 'RLUSD';
  flash: 'buy' | 'sell' | null;
  ref?: Ref<PriceChartHandle>;
}) {
  const [resolution, setResolution] = useState<ChartResolution>('15');
  const [state, setState] = useState<'loading' | 'ok' | 'empty' | 'error'>('loading');
  const container = useRef<HTMLDivElement>(null);
  const chart = useRef<IChartApi | null>(null);
  const candles = useRef<ISeriesApi<'Candlestick'> | null>(null);
  const volume = useRef<ISeriesApi<'Histogram'> | null>(null);
  const last = useRef<Bar | null>(null);
  /** Prices are drawn × this (see chartScale). */
  const factor = useRef(1);
  // Both read refs only, so they are made once and the data effect needs nothing more than its keys.
  const drawn = useCallback(
    <T extends { open: number; high: number; low: number; close: number }>(b: T): T => ({
      ...b,
      open: b.open * factor.current,
      high: b.high * factor.current,
      low: b.low * factor.current,
      close: b.close * factor.current,
    }),
    [],
  );
  const seconds = CHART_RESOLUTIONS.find((r) => r.code === resolution)!.seconds;

  // One chart for the page's life; it follows its container's width.
  useEffect(() => {
    const el = container.current!;
    const c = createChart(el, {
      autoSize: true,
      layout: {
        background: { type: ColorType.Solid, color: 'transparent' },
        textColor: '#9aa4c2',
        attributionLogo: false,
      },
      grid: { vertLines: { color: 'rgba(42,53,96,0.5)' }, horzLines: { color: 'rgba(42,53,96,0.5)' } },
      rightPriceScale: { borderColor: '#2a3560' },
      timeScale: { borderColor: '#2a3560', timeVisible: true, secondsVisible: false },
      crosshair: { mode: 0 },
    });
    candles.current = c.addSeries(CandlestickSeries, {
      upColor: UP,
      downColor: DOWN,
      wickUpColor: UP,
      wickDownColor: DOWN,
      borderVisible: false,
    });
    volume.current = c.addSeries(HistogramSeries, {
      priceScaleId: 'volume',
      priceFormat: { type: 'volume' },
      // The volume's last value on the price axis read as a price ('0' beside the candles' label).
      lastValueVisible: false,
      priceLineVisible: false,
    });
    c.priceScale('volume').applyOptions({ scaleMargins: { top: 0.8, bottom: 0 } });
    chart.current = c;
    return () => {
      c.remove();
      chart.current = null;
    };
  }, []);

  const show = useCallback(
    (bars: Bar[]) => {
      last.current = bars.at(-1) ?? null;
      const min = bars.reduce((m, b) => Math.min(m, b.low), Number.POSITIVE_INFINITY);
      const precision = precisionFor(Number.isFinite(min) ? min : 0);
      const { factor: f, inner } = chartScale(precision);
      factor.current = f;
      candles.current?.applyOptions({
        priceFormat: {
          type: 'custom',
          minMove: 10 ** -inner,
          // Labels only (display): the drawn value divided back to the price.
          formatter: (drawnPrice: number) => chartPriceLabel(drawnPrice, f, precision),
        },
      });
      candles.current?.setData(
        bars.map(({ volume: _v, ...b }) => drawn({ ...b, time: b.time as UTCTimestamp })),
      );
      volume.current?.setData(
        bars.map((b) => ({
          time: b.time as UTCTimestamp,
          value: b.volume,
          color: b.close >= b.open ? 'rgba(31,199,126,0.45)' : 'rgba(255,84,112,0.45)',
        })),
      );
      chart.current?.timeScale().fitContent();
    },
    [drawn],
  );

  useEffect(() => {
    const controller = new AbortController();
    setState('loading');
    fetchHistory(currency, issuer, resolution, seconds, BARS, controller.signal)
      .then((data) => {
        const d = usableChart(data);
        const bars: Bar[] = [];
        if (d && data.s === 'ok') {
          for (let i = 0; i < d.t.length; i++) {
            // Each candle opens where the previous one closed (as DEX charts draw them): a bucket
            // with one trade is a body from the last price to this one, not a flat line.
            const open = bars.at(-1)?.close ?? data.o[i] ?? d.c[i]!;
            bars.push({
              time: d.t[i]!,
              open,
              high: Math.max(data.h[i] ?? d.c[i]!, open),
              low: Math.min(data.l[i] ?? d.c[i]!, open),
              close: d.c[i]!,
              volume: data.v[i] ?? 0,
            });
          }
        }
        show(bars);
        setState(bars.length > 0 ? 'ok' : 'empty');
      })
      .catch((err: unknown) => {
        if ((err as Error).name === 'AbortError') return;
        show([]);
        setState('error');
      });
    return () => controller.abort();
  }, [currency, issuer, resolution, seconds, show]);

  useImperativeHandle(
    ref,
    () => ({
      addTrade(trade) {
        const price = Number(trade.price);
        if (!(price > 0)) return;
        const at = Math.floor((trade.time ?? Date.now()) / 1000);
        const bucket = at - (at % seconds);
        const quoteVolume = price * Number(trade.amount ?? 0);
        const prev = last.current;
        // A frame older than the last bar (a late frame after a refetch) is already in the data.
        if (prev && bucket < prev.time) return;
        const bar: Bar =
          prev && prev.time === bucket
            ? {
                ...prev,
                high: Math.max(prev.high, price),
                low: Math.min(prev.low, price),
                close: price,
                volume: prev.volume + quoteVolume,
              }
            : {
                time: bucket,
                open: prev?.close ?? price,
                high: price,
                low: price,
                close: price,
                volume: quoteVolume,
              };
        last.current = bar;
        candles.current?.update(drawn({ ...bar, time: bucket as UTCTimestamp }));
        volume.current?.update({
          time: bucket as UTCTimestamp,
          value: bar.volume,
          color: bar.close >= bar.open ? 'rgba(31,199,126,0.45)' : 'rgba(255,84,112,0.45)',
        });
        setState('ok');
      },
    }),
    [seconds, drawn],
  );

  return (
    <section
      className={`panel chart-panel${flash ? ` flash-${flash}` : ''}`}
      aria-label="Price chart"
      data-flash={flash ?? undefined}
      data-testid="chart"
      // 'ok' once the first candle is drawn: what the bench's "until its first candle" waits for.
      data-state={state}
    >
      <div className="chart-toolbar">
        <h2 className="panel-title">Price ({quote === 'RLUSD' ? 'RLUSD' : 'XRP'})</h2>
        <div className="segmented" role="group" aria-label="Chart resolution">
          {CHART_RESOLUTIONS.map((r) => (
            <button
              key={r.code}
              type="button"
              aria-pressed={r.code === resolution}
              onClick={() => setResolution(r.code)}
            >
              {r.label}
            </button>
          ))}
        </div>
      </div>
      <div className="chart-area">
        <div ref={container} className="chart-canvas" />
        {state !== 'ok' && (
          <p className="chart-state muted" role="status">
            {state === 'loading'
              ? 'Loading chart…'
              : state === 'error'
                ? 'The chart could not be loaded.'
                : 'No trades in this range yet.'}
          </p>
        )}
      </div>
    </section>
  );
}
