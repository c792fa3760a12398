import { useCallback, useMemo, useRef, useState } from 'react';
import { Link } from 'react-router';
import {
  ORDER_MESSAGES,
  ORDERS_PAGE_SIZE,
  displayTicker,
  formatAmount,
  type OrderView,
} from '@ledgerpad/shared';
import { LoadFailed } from '../../components/load-failed';
import { Pagination } from '../../components/pagination';
import { isFinalAnswer } from '../../lib/api';
import { newIdempotencyKey } from '../../lib/idempotency-key';
import { useSession } from '../../lib/session';
import { useWalletBalances } from '../../lib/wallet-balances';
import {
  NO_FILTERS,
  cancelOrder,
  useOrderUpdates,
  useOrders,
  useOrdersStatusCheck,
  useUpdateCachedOrders,
  type OrderFilters,
} from './api';
import { OrderFiltersPanel, walletLabel, type WalletOption } from './order-filters';
import { STATUS_LABELS, applyOrderUpdate, isResting, withLocalCancels } from './order-status';
import './orders.css';

/**
 * /orders, the Orders Manager (spec 001 §2 Orders): the user's limit orders newest first, filtered
 * by the server, 20 per page. Statuses follow the ledger through the live orderUpdated frames and
 * a status check every 60 s; resting orders (open, partially filled) can be cancelled.
 */
export function OrdersPage() {
  const session = useSession();
  const userId = session.status === 'signed-in' ? session.user.id : undefined;
  const [filters, setFilters] = useState<OrderFilters>(NO_FILTERS);
  const [page, setPage] = useState(1);
  const orders = useOrders(userId, filters);
  const balances = useWalletBalances(userId !== undefined);
  const updateCached = useUpdateCachedOrders(userId);

  // Orders cancelled from this page: their status stays canceled whatever a late frame says.
  const [cancelledLocally, setCancelledLocally] = useState<ReadonlySet<number>>(new Set());
  const [cancelling, setCancelling] = useState<ReadonlySet<number>>(new Set());
  // One Idempotency-Key per order's cancel, kept for a retry after an unknown outcome; a click while
  // the order's cancel runs sends nothing (checked before React re-renders the disabled button).
  const cancelKeys = useRef(new Map<number, string>());
  const inFlight = useRef(new Set<number>());

  useOrdersStatusCheck(userId);
  useOrderUpdates((update) => updateCached((list) => applyOrderUpdate(list, update, cancelledLocally)));

  const onCancel = useCallback(
    async (order: OrderView) => {
      if (inFlight.current.has(order.id)) return;
      inFlight.current.add(order.id);
      setCancelling((s) => new Set(s).add(order.id));
      let key = cancelKeys.current.get(order.id);
      if (!key) cancelKeys.current.set(order.id, (key = newIdempotencyKey()));
      try {
        await cancelOrder(order.id, key);
        cancelKeys.current.delete(order.id);
        const mine = new Set([order.id]);
        setCancelledLocally((s) => new Set(s).add(order.id));
        updateCached((list) => withLocalCancels(list, mine));
      } catch (err) {
        if (isFinalAnswer(err)) cancelKeys.current.delete(order.id);
        window.alert(ORDER_MESSAGES.cancelFailed);
      } finally {
        inFlight.current.delete(order.id);
        setCancelling((s) => {
          const next = new Set(s);
          next.delete(order.id);
          return next;
        });
      }
    },
    [updateCached],
  );

  const wallets: WalletOption[] = useMemo(
    () => (balances.data ?? []).map((w) => ({ address: w.wallet_address, name: w.wallet_name })),
    [balances.data],
  );
  const walletNames = useMemo(() => new Map(wallets.map((w) => [w.address, w.name])), [wallets]);

  const list = orders.data ? withLocalCancels(orders.data, cancelledLocally) : [];
  const pages = Math.max(1, Math.ceil(list.length / ORDERS_PAGE_SIZE));
  const current = Math.min(page, pages);
  const shown = list.slice((current - 1) * ORDERS_PAGE_SIZE, current * ORDERS_PAGE_SIZE);
  const filtered = Object.values(filters).some(Boolean);

  const changeFilters = (next: OrderFilters) => {
    setFilters(next);
    setPage(1);
  };

  return (
    <div className="orders-page">
      <div className="page-title-row">
        <h1>Your Open Orders</h1>
      </div>

      <section className="panel" aria-label="Orders">
        <OrderFiltersPanel filters={filters} wallets={wallets} onChange={changeFilters} />

        {orders.isPending ? (
          <p className="muted orders-state" aria-busy="true">
            Loading orders…
          </p>
        ) : orders.isError ? (
          <LoadFailed
            className="orders-state"
            message={ORDER_MESSAGES.fetchFailed}
            onRetry={() => void orders.refetch()}
          />
        ) : list.length === 0 ? (
          filtered ? (
            <p className="empty-state">
              No orders match these filters.{' '}
              <button type="button" className="link-button" onClick={() => changeFilters(NO_FILTERS)}>
                Clear Filters
              </button>
            </p>
          ) : (
            <p className="empty-state">
              No orders yet. <Link to="/swap">Place a limit order on the Swap page</Link>.
            </p>
          )
        ) : (
          <>
            <div className="orders-table-wrap">
              <table className="orders-table">
                <thead>
                  <tr>
                    <th scope="col">Type</th>
                    <th scope="col">Token</th>
                    <th scope="col" className="num">
                      PAY (XRP)
                    </th>
                    <th scope="col" className="num">
                      GET (XRP)
                    </th>
                    <th scope="col" className="num">
                      Amount of Tokens
                    </th>
                    <th scope="col" className="num">
                      Price (XRP)
                    </th>
                    <th scope="col">Wallet</th>
                    <th scope="col">Date</th>
                    <th scope="col">Status</th>
                    <th scope="col">Actions</th>
                  </tr>
                </thead>
                <tbody>
                  {shown.map((o) => (
                    <OrderRow
                      key={o.id}
                      order={o}
                      walletName={walletNames.get(o.wallet_address)}
                      cancelling={cancelling.has(o.id)}
                      onCancel={onCancel}
                    />
                  ))}
                </tbody>
              </table>
            </div>
            <Pagination label="Orders pages" current={current} pages={pages} onPage={setPage} />
          </>
        )}
      </section>
    </div>
  );
}

/** A quote-asset figure: the header says XRP, so RLUSD-quoted rows name their unit. */
const quoteFigure = (order: OrderView, value: string) =>
  `${formatAmount(value)}${order.quote === 'RLUSD' ? ' RLUSD' : ''}`;

/** The user's locale date, then the time (stacked in the table to keep it narrow). */
function OrderDate({ iso }: { iso: string }) {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return (
    <time dateTime={iso} className="order-date">
      <span>{d.toLocaleDateString(undefined, { dateStyle: 'medium' })}</span>{' '}
      <span className="muted small">{d.toLocaleTimeString(undefined, { timeStyle: 'short' })}</span>
    </time>
  );
}

function OrderRow({
  order,
  walletName,
  cancelling,
  onCancel,
}: {
  order: OrderView;
  walletName: string | null | undefined;
  cancelling: boolean;
  onCancel: (order: OrderView) => void;
}) {
  const buy = order.order_type === 'BUY';
  // PAY/GET: a BUY pays `amount` of the quote asset, a SELL gets it; the other side is the tokens.
  const pay = buy ? quoteFigure(order, order.amount) : '—';
  const get = buy ? '—' : quoteFigure(order, order.amount);
  const partial = order.status === 'partially_filled';
  return (
    <tr>
      <td data-label="Type">
        <span className={buy ? 'order-side buy' : 'order-side sell'}>{order.order_type}</span>
      </td>
      <td data-label="Token" className="order-token">
        {displayTicker(order.token_currency)}
      </td>
      <td data-label="PAY (XRP)" className="num">
        {pay}
      </td>
      <td data-label="GET (XRP)" className="num">
        {get}
      </td>
      <td data-label="Amount of Tokens" className="num">
        {formatAmount(order.expected_tokens)}
        {partial && (
          <span className="muted small order-remaining">{formatAmount(order.remaining_tokens)} left</span>
        )}
      </td>
      <td data-label="Price (XRP)" className="num">
        {quoteFigure(order, order.price)}
      </td>
      <td data-label="Wallet">
        <span title={order.wallet_address}>{walletLabel(order.wallet_address, walletName)}</span>
      </td>
      <td data-label="Date">
        <OrderDate iso={order.created_at} />
      </td>
      <td data-label="Status">
        <span className={`order-status ${order.status}`}>{STATUS_LABELS[order.status]}</span>
      </td>
      <td data-label="Actions" className={isResting(order.status) ? 'order-actions' : 'order-actions none'}>
        {/* Only resting offers can be cancelled: open ones and partially filled ones, whose rest is
            still on the ledger's book. */}
        {isResting(order.status) ? (
          <button
            type="button"
            className="btn-secondary order-cancel"
            disabled={cancelling}
            onClick={() => onCancel(order)}
          >
            {cancelling ? 'Cancelling…' : 'Cancel'}
          </button>
        ) : (
          <span className="muted">—</span>
        )}
      </td>
    </tr>
  );
}
