import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef } from 'react';
import {
  ORDERS_STATUS_CHECK_MS,
  type CheckOrdersResult,
  type OrderStatus,
  type OrderUpdated,
  type OrderView,
  type TradeSide,
} from '@ledgerpad/shared';
import { apiDelete, apiGet } from '../../lib/api';
import { onSocketEvent } from '../../lib/live-socket';
import { orderKeys } from './keys';

// Server state of the orders page (spec 001 §2 Orders, §7): the list (GET, filtered by the server),
// the cancel (DELETE), the 60 s status check and the live orderUpdated frames.

export interface OrderFilters {
  /** A wallet address, or '' for all. */
  wallet: string;
  status: OrderStatus | '';
  type: TradeSide | '';
  /** yyyy-mm-dd from the date inputs (the user's local days), or ''. */
  from: string;
  to: string;
}

export const NO_FILTERS: OrderFilters = { wallet: '', status: '', type: '', from: '', to: '' };

/** The list's query string: dates become the start of `from` and the end of `to` in local time. */
function ordersQuery(filters: OrderFilters): string {
  const q = new URLSearchParams();
  if (filters.wallet) q.set('wallet', filters.wallet);
  if (filters.status) q.set('status', filters.status);
  if (filters.type) q.set('type', filters.type);
  const day = (value: string, time: string) => {
    const d = new Date(`${value}T${time}`);
    return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
  };
  const from = filters.from && day(filters.from, '00:00:00');
  const to = filters.to && day(filters.to, '23:59:59.999');
  if (from) q.set('from', from);
  if (to) q.set('to', to);
  const s = q.toString();
  return s ? `?${s}` : '';
}

export function useOrders(userId: number | undefined, filters: OrderFilters) {
  return useQuery({
    queryKey: orderKeys.list(userId ?? 0, filters),
    queryFn: ({ signal }) =>
      apiGet<OrderView[]>(`/api/orders/get-orders/${userId}${ordersQuery(filters)}`, { signal }),
    enabled: userId !== undefined,
  });
}

/** DELETE /api/cancel-order/{id}, with the cancel's Idempotency-Key (the same on a retry). */
export const cancelOrder = (orderId: number, idempotencyKey: string) =>
  apiDelete<OrderView>(`/api/cancel-order/${encodeURIComponent(orderId)}`, { idempotencyKey });

/** Rewrites every cached list of the user (all filter combinations) with `update`. */
export function useUpdateCachedOrders(userId: number | undefined) {
  const queryClient = useQueryClient();
  return useCallback(
    (update: (orders: OrderView[]) => OrderView[]) => {
      if (userId === undefined) return;
      queryClient.setQueriesData<OrderView[]>({ queryKey: orderKeys.ofUser(userId) }, (old) =>
        old ? update(old) : old,
      );
    },
    [queryClient, userId],
  );
}

/**
 * Every 60 s: GET /api/check-orders-status (the session cookie says whose orders; the server
 * replays the wallets' ledger history), then the list is fetched again. A failed check is silent:
 * the next one comes a minute later.
 */
export function useOrdersStatusCheck(userId: number | undefined) {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (userId === undefined) return;
    const timer = setInterval(() => {
      void apiGet<CheckOrdersResult>('/api/check-orders-status')
        .catch(() => undefined)
        .then(() => queryClient.invalidateQueries({ queryKey: orderKeys.ofUser(userId) }));
    }, ORDERS_STATUS_CHECK_MS);
    return () => clearInterval(timer);
  }, [queryClient, userId]);
}

/** Calls `onUpdate` with each orderUpdated frame the server pushes to the signed-in user. */
export function useOrderUpdates(onUpdate: (update: OrderUpdated) => void) {
  const ref = useRef(onUpdate);
  ref.current = onUpdate;
  useEffect(() => onSocketEvent('orderUpdated', (update) => ref.current(update)), []);
}
