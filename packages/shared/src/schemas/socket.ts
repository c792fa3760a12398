import { z } from 'zod';
import type { JobStatusView } from './job-status';
import { classicAddressSchema } from './common';

// The live socket's messages: JSON `{ event, data }` both ways (spec 000 §7, 001 §7). The spec's
// client sends `{ event, token, issuer }` for subscriptions; `data` is accepted as an alternative
// envelope so every message can follow one shape.

const SOCKET_CLIENT_EVENTS = ['subscribe', 'unsubscribe'] as const;

/** A ticker (up to 20 bytes) or its 40-hex currency code. */
const currencyCode = z.string().min(1, 'token is required').max(40, 'token must be a currency code');
const classicAddress = classicAddressSchema('issuer');

export const socketSubscriptionSchema = z.object({ token: currencyCode, issuer: classicAddress });
export type SocketSubscription = z.infer<typeof socketSubscriptionSchema>;

export const socketClientMessageSchema = z.object({
  event: z.enum(SOCKET_CLIENT_EVENTS),
  token: z.string().optional(),
  issuer: z.string().optional(),
  data: z.object({ token: z.string(), issuer: z.string() }).partial().optional(),
});

export const newTradeSchema = z.object({
  type: z.enum(['BUY', 'SELL']),
  baseCurrency: z.string(),
  baseIssuer: z.string().nullable(),
  quoteCurrency: z.string(),
  quoteIssuer: z.string().nullable(),
  /** Decimal string; prices are never JavaScript floats on the wire. */
  price: z.string(),
  /** Tokens traded (decimal string). */
  amount: z.string().optional(),
  /** The transaction that made the trade. */
  hash: z.string().optional(),
  /** Unix milliseconds of the ledger's close. */
  time: z.number().optional(),
});
export type NewTrade = z.infer<typeof newTradeSchema>;

export const orderUpdatedSchema = z.object({
  orderId: z.union([z.string(), z.number()]),
  status: z.enum(['open', 'filled', 'partially_filled', 'canceled']),
});
export type OrderUpdated = z.infer<typeof orderUpdatedSchema>;

/** Server → client messages. */
export type SocketServerMessage =
  | { event: 'new_trade'; data: NewTrade }
  | { event: 'orderUpdated'; data: OrderUpdated }
  | { event: 'subscribed' | 'unsubscribed'; data: SocketSubscription }
  | { event: 'ready'; data: { userId: number | null } }
  /** A job of the signed-in user changed (deploy progress): the job-status view plus its id. */
  | { event: 'jobUpdated'; data: JobStatusView & { jobId: string } }
  | { event: 'error'; data: { code: string; message: string } };

/** Per-socket subscription cap: a browser tab watches a handful of tokens, not thousands. */
export const SOCKET_MAX_SUBSCRIPTIONS = 50;
