import { formatAmount, formatFull, formatPrice, type BookRow, type OrderBookView } from '@ledgerpad/shared';

// The token's order book on the ledger (top 10 per side, dust hidden by the server): asks above,
// bids below, each row's depth drawn behind it relative to the side's largest order.

export function OrderBook({
  book,
  loading,
  failed,
  quote,
}: {
  book: OrderBookView | undefined;
  loading: boolean;
  failed: boolean;
  quote: 'XRP' | 'RLUSD';
}) {
  const asks = [...(book?.sellOrders ?? [])].reverse();
  const bids = book?.buyOrders ?? [];
  return (
    <section className="panel book-panel" aria-labelledby="book-title" data-testid="order-book">
      <h2 id="book-title" className="panel-title">
        Order book
      </h2>
      {loading ? (
        <p className="muted">Loading order book…</p>
      ) : failed ? (
        <p className="muted">The order book could not be loaded.</p>
      ) : asks.length === 0 && bids.length === 0 ? (
        <p className="muted">No open orders on the ledger.</p>
      ) : (
        <table className="book-table">
          <thead>
            <tr>
              <th className="num">Price ({quote})</th>
              <th className="num">Amount</th>
            </tr>
          </thead>
          <tbody>
            <Side rows={asks} side="ask" />
            <Side rows={bids} side="bid" />
          </tbody>
        </table>
      )}
    </section>
  );
}

function Side({ rows, side }: { rows: BookRow[]; side: 'ask' | 'bid' }) {
  const max = rows.reduce((m, r) => Math.max(m, Number(r.amount)), 0);
  return rows.map((r, i) => (
    <tr
      key={`${side}-${i}`}
      className={`book-row ${side}`}
      style={{ ['--depth' as string]: max > 0 ? `${(Number(r.amount) / max) * 100}%` : '0%' }}
    >
      <td className="num figure" title={formatFull(r.price)}>
        {formatPrice(r.price)}
      </td>
      <td className="num figure" title={formatFull(r.amount)}>
        {formatAmount(r.amount)}
      </td>
    </tr>
  ));
}
