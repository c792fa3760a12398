import { z } from 'zod';
import { wholeNumberSchema } from './common';

// One paging shape for every list the server answers (`?limit=&offset=`), so no list is ever
// unbounded; each route states its default and its largest page.

const PAGE_MESSAGES = {
  limit: (max: number) => `limit must be a whole number from 1 to ${max}.`,
  offset: 'offset must be a whole number of at least 0.',
} as const;

export function pageQuerySchema(defaultLimit: number, maxLimit: number) {
  // Never coerced: '0x10', '1e3' or '' are not numbers (docs/money.md "Fair and explicit rules").
  return z.object({
    limit: wholeNumberSchema('limit', { min: 1, max: maxLimit, message: PAGE_MESSAGES.limit(maxLimit) })
      .optional()
      .transform((v) => v ?? defaultLimit),
    offset: wholeNumberSchema('offset', { min: 0, message: PAGE_MESSAGES.offset })
      .optional()
      .transform((v) => v ?? 0),
  });
}

export type PageQuery = z.output<ReturnType<typeof pageQuerySchema>>;

/** GET /api/airdrops: 100 a page by default, at most 100. */
export const AIRDROPS_PAGE = { default: 100, max: 100 } as const;

/** GET /api/admin/all-wallets: users' wallets, 500 a page by default (the admin page shows one), at most 1000. */
export const ADMIN_WALLETS_PAGE = { default: 500, max: 1000 } as const;

/**
 * A user's own lists (wallets, orders, positions, rewards, trust lines, deployed tokens): a page
 * holds more than any normal user has (wallet creations are capped per day), so the web's one
 * request still sees everything; the cap bounds what one request can make the server send.
 */
export const USER_LIST_PAGE = { default: 500, max: 1000 } as const;

/**
 * The market's public lists (/api/tokens, /api/prices, /api/holders): one row per listed token,
 * computed once per ledger whatever the page, so the default is the whole list up to the
 * spec's fetch limit (TOKEN_FETCH_LIMIT); the web follows `Link: rel="next"` past it.
 */
export const MARKET_LIST_PAGE = { default: 10_000, max: 10_000 } as const;

/** Admin lists (listed tokens, staged deploy wallets, fee overrides) and a token's holders. */
export const ADMIN_LIST_PAGE = { default: 500, max: 1000 } as const;
