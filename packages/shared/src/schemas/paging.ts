import { z } from 'zod';

// One paging shape for every list the server answers (`?limit=&offset=`), so no list is ever
// unbounded; each route states its default and its largest page.

export const PAGE_MESSAGES = {
  limit: (max: number) => `limit must be a whole number from 1 to ${max}.`,
  offset: 'offset must be a whole number of at least 0.',
} as const;

export function pageQuerySchema(defaultLimit: number, maxLimit: number) {
  // Never coerced: '0x10', '1e3' or '' are not numbers (docs/money.md "Fair and explicit rules").
  const whole = (message: string, min: number, max = Number.MAX_SAFE_INTEGER) =>
    z.unknown().transform((v, ctx) => {
      const n =
        typeof v === 'number' ? v : typeof v === 'string' && /^\d{1,16}$/.test(v) ? Number(v) : Number.NaN;
      if (!Number.isSafeInteger(n) || n < min || n > max) {
        ctx.addIssue({ code: 'custom', message });
        return z.NEVER;
      }
      return n;
    });
  return z.object({
    limit: whole(PAGE_MESSAGES.limit(maxLimit), 1, maxLimit)
      .optional()
      .transform((v) => v ?? defaultLimit),
    offset: whole(PAGE_MESSAGES.offset, 0)
      .optional()
      .transform((v) => v ?? 0),
  });
}

export type PageQuery = z.output<ReturnType<typeof pageQuerySchema>>;

/** GET /api/airdrops: 100 a page by default, at most 100. */
export const AIRDROPS_PAGE = { default: 100, max: 100 } as const;

/** GET /api/admin/all-wallets: users' wallets, 500 a page by default (the admin page shows one), at most 1000. */
export const ADMIN_WALLETS_PAGE = { default: 500, max: 1000 } as const;
