import { z } from 'zod';

// One paging shape for every list the server answers (`?limit=&offset=`), so no list is ever
// unbounded; each route states its default and its largest page.

export const PAGE_MESSAGES = {
  limit: (max: number) => `limit must be a whole number from 1 to ${max}.`,
  offset: 'offset must be a whole number of at least 0.',
} as const;

export function pageQuerySchema(defaultLimit: number, maxLimit: number) {
  return z.object({
    limit: z.coerce
      .number({ message: PAGE_MESSAGES.limit(maxLimit) })
      .int(PAGE_MESSAGES.limit(maxLimit))
      .min(1, PAGE_MESSAGES.limit(maxLimit))
      .max(maxLimit, PAGE_MESSAGES.limit(maxLimit))
      .default(defaultLimit),
    offset: z.coerce
      .number({ message: PAGE_MESSAGES.offset })
      .int(PAGE_MESSAGES.offset)
      .min(0, PAGE_MESSAGES.offset)
      .default(0),
  });
}

export type PageQuery = z.output<ReturnType<typeof pageQuerySchema>>;

/** GET /api/airdrops: 100 a page by default, at most 100. */
export const AIRDROPS_PAGE = { default: 100, max: 100 } as const;

/** GET /api/admin/all-wallets: users' wallets, 500 a page by default (the admin page shows one), at most 1000. */
export const ADMIN_WALLETS_PAGE = { default: 500, max: 1000 } as const;
