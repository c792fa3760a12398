import { z } from 'zod';
import { classicAddressSchema } from './common';
import type { QuoteAsset, TradeSide } from './trading';

// Orders (spec 001 §2 Orders, §4, §7): the wallets' offers on the ledger, as the orders screen
// lists and filters them, and the answers of placing and cancelling one.

export const ORDER_STATUSES = ['open', 'partially_filled', 'filled', 'canceled'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];
/** Statuses still resting on the ledger's book: the ones that can be cancelled. */
export const RESTING_STATUSES: readonly OrderStatus[] = ['open', 'partially_filled'];

export const ORDER_MESSAGES = {
  fetchFailed: 'Failed to fetch orders.',
  cancelFailed: 'Failed to cancel order.',
  notCancellable: 'Only open orders can be cancelled.',
  notFound: 'Order not found.',
  placed: (n: number) => `📌 ${n} limit order(s) placed.`,
} as const;

export interface OrderView {
  id: number;
  wallet_address: string;
  status: OrderStatus;
  order_type: TradeSide;
  /** The token's currency code as on the ledger (ticker or 40-hex). */
  token_currency: string;
  token_issuer: string;
  quote: QuoteAsset;
  /** The quote-asset side as placed: what a BUY pays, what a SELL gets. */
  amount: string;
  /** The token side as placed. */
  expected_tokens: string;
  /** The token side still resting. */
  remaining_tokens: string;
  /** Quote asset per token. */
  price: string;
  created_at: string;
  expires_at: string | null;
  hash: string;
}

export interface LimitOrderResult {
  status: 'success';
  message: string;
  order: OrderView;
}

const dateParam = (name: string) =>
  z
    .string()
    .refine((v) => !Number.isNaN(Date.parse(v)), `${name} must be a date.`)
    .transform((v) => new Date(v))
    .optional();

/** GET /api/orders/get-orders/{userId}: optional filters (the screen's), newest first. */
export const ordersQuerySchema = z.object({
  wallet: classicAddressSchema('wallet').optional(),
  status: z
    .enum(ORDER_STATUSES, { message: 'status must be open, partially_filled, filled or canceled.' })
    .optional(),
  type: z.enum(['BUY', 'SELL'], { message: 'type must be BUY or SELL.' }).optional(),
  from: dateParam('from'),
  to: dateParam('to'),
});

/** The most orders one list answer carries (the screen pages them 20 at a time). */
export const ORDERS_LIST_LIMIT = 1000;
/** GET /api/orders/get-orders: a page is the list the screen had before paging (at most 1000). */
export const ORDERS_PAGE = { default: ORDERS_LIST_LIMIT, max: ORDERS_LIST_LIMIT } as const;

export interface CheckOrdersResult {
  checked: number;
  updated: Array<{ orderId: number; status: OrderStatus }>;
}
