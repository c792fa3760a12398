import { useState } from 'react';
import { formatAmount, formatFull, formatPrice, type TradeView } from '@ledgerpad/shared';
import { explorerTxUrl, useLedgerNetwork } from '../../lib/auth-methods';

// The token's latest trades, newest first, from every account on the ledger (not only Ledgerpad's
// users); each links to the network's explorer where there is one. Ten rows, then 'Show more' (the
// page keeps 30); figures never wrap inside themselves, with the full figure on hover.

const SHOWN = 10;

/** Today's trades by time; older ones with their date too (seconds in the tooltip). */
function timeOf(ms: number): string {
  const d = new Date(ms);
  const time = d.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
  if (d.toDateString() === new Date().toDateString()) return time;
  return `${d.toLocaleDateString(undefined, { month: 'short', day: 'numeric' })} ${time}`;
}

export function RecentTrades({
  trades,
  loading,
  failed,
}: {
  trades: TradeView[];
  loading: boolean;
  failed: boolean;
}) {
  const network = useLedgerNetwork();
  const [all, setAll] = useState(false);
  const shown = all ? trades : trades.slice(0, SHOWN);
  return (
    <section className="panel trades-panel" aria-labelledby="trades-title" data-testid="recent-trades">
      <h2 id="trades-title" className="panel-title">
        Recent trades
      </h2>
      {loading ? (
        <p className="muted">Loading trades…</p>
      ) : failed && trades.length === 0 ? (
        <p className="muted">Trades could not be loaded.</p>
      ) : trades.length === 0 ? (
        <p className="muted">No trades yet.</p>
      ) : (
        <div className="table-scroll">
          <table className="trades-table">
            <thead>
              <tr>
                <th>Time</th>
                <th>Side</th>
                <th className="num">Price</th>
                <th className="num">Amount</th>
                <th className="num col-total">Total</th>
              </tr>
            </thead>
            <tbody>
              {shown.map((t) => {
                const url = explorerTxUrl(network, t.hash);
                return (
                  <tr key={t.hash} data-testid="trade-row">
                    <td>
                      {url ? (
                        <a
                          href={url}
                          target="_blank"
                          rel="noopener noreferrer"
                          title={`${new Date(t.time).toLocaleString()} · ${t.hash}`}
                        >
                          {timeOf(t.time)}
                        </a>
                      ) : (
                        <span title={`${new Date(t.time).toLocaleString()} · ${t.hash}`}>
                          {timeOf(t.time)}
                        </span>
                      )}
                    </td>
                    <td className={t.side === 'BUY' ? 'up' : 'down'}>{t.side === 'BUY' ? 'Buy' : 'Sell'}</td>
                    <td className="num figure" title={formatFull(t.price)}>
                      {formatPrice(t.price)}
                    </td>
                    <td className="num figure" title={formatFull(t.tokenAmount)}>
                      {formatAmount(t.tokenAmount)}
                    </td>
                    <td className="num figure col-total" title={`${formatFull(t.quoteAmount)} ${t.quote}`}>
                      {formatAmount(t.quoteAmount)} <span className="unit">{t.quote}</span>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          {trades.length > SHOWN && (
            <button type="button" className="link-button trades-more" onClick={() => setAll((a) => !a)}>
              {all ? 'Show fewer' : `Show ${trades.length - SHOWN} more`}
            </button>
          )}
        </div>
      )}
    </section>
  );
}
