import { z } from 'zod';
import { CURRENCY_MESSAGES, parseTokenCode, type TokenCodeOptions, type TokenCodeProblem } from '../currency';

// Apart from currency.ts: that module's conversions run on every page (the landing list included),
// and a zod import there put zod (~26 KB gzip) and the address codec in the landing route's chunks.

/**
 * The one zod schema of a token code (output: the ledger currency code). `message` is the spec's
 * text for a missing or unusable code on screens that have one ('Please select a wallet and token.');
 * otherwise the answer names the field and the rule.
 */
export const tokenCodeSchema = (
  field = 'token',
  opts: TokenCodeOptions & { message?: string; messages?: Partial<Record<TokenCodeProblem, string>> } = {},
) =>
  z.string({ message: opts.message ?? CURRENCY_MESSAGES.invalid(field) }).transform((v, ctx) => {
    const parsed = parseTokenCode(v, opts);
    if ('currency' in parsed) return parsed.currency;
    const fallback = opts.message ?? CURRENCY_MESSAGES.invalid(field);
    const message =
      opts.messages?.[parsed.problem] ??
      (parsed.problem === 'xrp'
        ? CURRENCY_MESSAGES.xrp
        : parsed.problem === 'lp'
          ? CURRENCY_MESSAGES.lp
          : fallback);
    ctx.addIssue({ code: 'custom', message });
    return z.NEVER;
  });
