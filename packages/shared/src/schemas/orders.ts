import { z } from 'zod';
import { classicAddressSchema } from './common';
import { quoteAssetSchema, TRADE_SIDES } from './trading';

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

/** One order as the orders screen lists it (GET /api/orders/get-orders/{userId}). */
export const orderViewSchema = z.object({
  id: z.number().int(),
  wallet_address: z.string(),
  status: z.enum(ORDER_STATUSES),
  order_type: z.enum(TRADE_SIDES),
  /** The token's currency code as on the ledger (ticker or 40-hex). */
  token_currency: z.string(),
  token_issuer: z.string(),
  quote: quoteAssetSchema,
  /** The quote-asset side as placed: what a BUY pays, what a SELL gets. */
  amount: z.string(),
  /** The token side as placed. */
  expected_tokens: z.string(),
  /** The token side still resting. */
  remaining_tokens: z.string(),
  /** Quote asset per token. */
  price: z.string(),
  created_at: z.string(),
  expires_at: z.string().nullable(),
  hash: z.string(),
});
export type OrderView = z.infer<typeof orderViewSchema>;
export const orderListSchema = z.array(orderViewSchema);

/** POST /api/limit-order: the order placed. */
export const limitOrderResultSchema = z.object({
  status: z.literal('success'),
  message: z.string(),
  order: orderViewSchema,
});
export type LimitOrderResult = z.infer<typeof limitOrderResultSchema>;

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

/** GET /api/check-orders-status: the caller's resting orders checked on the ledger, and those that changed. */
export const checkOrdersResultSchema = z.object({
  checked: z.number().int(),
  updated: z.array(z.object({ orderId: z.number().int(), status: z.enum(ORDER_STATUSES) })),
});
export type CheckOrdersResult = z.infer<typeof checkOrdersResultSchema>;
