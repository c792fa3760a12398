import { RESTING_STATUSES, type OrderStatus, type OrderUpdated, type OrderView } from '@ledgerpad/shared';

// The status rules of the orders page as pure functions (unit-tested without a socket).

/**
 * Cancellable: the order still rests on the ledger's book. A partially filled offer keeps resting
 * with what is left of it, so it is cancellable just like an open one.
 */
export const isResting = (status: OrderStatus): boolean => RESTING_STATUSES.includes(status);

/**
 * A live `orderUpdated` frame applied to a list: the matching order takes the pushed status, except
 * an order cancelled from this page, which stays canceled (a frame for an earlier state of the offer
 * can arrive after the cancel's answer). Returns the same array when nothing changes.
 */
export function applyOrderUpdate(
  orders: OrderView[],
  update: OrderUpdated,
  cancelledLocally: ReadonlySet<number>,
): OrderView[] {
  const id = Number(update.orderId);
  if (cancelledLocally.has(id)) return orders;
  let changed = false;
  const next = orders.map((o) => {
    if (o.id !== id || o.status === update.status) return o;
    changed = true;
    return { ...o, status: update.status };
  });
  return changed ? next : orders;
}

/** Orders cancelled from this page read canceled whatever a (possibly older) list answer says. */
export function withLocalCancels(orders: OrderView[], cancelledLocally: ReadonlySet<number>): OrderView[] {
  if (cancelledLocally.size === 0) return orders;
  return orders.map((o) =>
    cancelledLocally.has(o.id) && o.status !== 'canceled' ? { ...o, status: 'canceled' } : o,
  );
}

/** The status as the table shows it: the API's word (partially_filled spaced out). */
export const STATUS_LABELS: Record<OrderStatus, string> = {
  open: 'open',
  partially_filled: 'partially filled',
  filled: 'filled',
  canceled: 'canceled',
};
