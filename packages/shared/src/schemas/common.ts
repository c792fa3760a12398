import { isValidClassicAddress, isValidXAddress, xAddressToClassicAddress } from 'ripple-address-codec';
import { z } from 'zod';

// Validation at the edge, written once: every route and form builds its fields from these, so an
// address, an id or a piece of text is checked the same way everywhere, before anything runs.

/**
 * The largest id any route accepts: the users table's ids are PostgreSQL `integer` (int4) and
 * every other table's are far from it, so one bound for every id keeps a number the database
 * would refuse ("out of range for type integer", a 500) out of every query (docs/server-conventions.md).
 */
export const ID_MAX = 2_147_483_647;

export const EDGE_MESSAGES = {
  address: (field: string) => `${field} must be a valid XRPL address`,
  xAddressNetwork: (field: string, network: 'mainnet' | 'test') =>
    `${field} is an X-address for ${network === 'mainnet' ? 'a test network' : 'mainnet'}; use an address of this network (${network === 'mainnet' ? 'mainnet' : 'test network'})`,
  id: (field: string) => `${field} must be a whole number from 1 to ${ID_MAX}`,
  controlChars: (field: string) => `${field} must not contain control characters`,
  idempotencyKey: 'Idempotency-Key must be 8-128 letters, digits or . _ : -',
  /** A signed-in route's `:userId` that is not the caller's (one sentence for every such route). */
  notOwnUser: 'You can only view your own data: the user id in the path is not yours.',
} as const;

/**
 * A classic address (r…) whose base58check checksum is valid. The regex alone lets typos through,
 * and the ledger then answers with an error the user can't read.
 */
export const classicAddressSchema = (field = 'address') =>
  z
    .string({ message: EDGE_MESSAGES.address(field) })
    .trim()
    .refine((v) => v.length <= 64 && isValidClassicAddress(v), EDGE_MESSAGES.address(field));

/** A payment destination: a classic address or an X-address (which carries a tag and a network flag). */
export const destinationAddressSchema = (field = 'address') =>
  z
    .string({ message: EDGE_MESSAGES.address(field) })
    .trim()
    .refine(
      (v) => v.length <= 64 && (isValidClassicAddress(v) || isValidXAddress(v)),
      EDGE_MESSAGES.address(field),
    );

interface ResolvedDestination {
  address: string;
  /** The tag an X-address carries, if any. */
  tag?: number;
}

/**
 * Resolves a destination for the network the server runs on. X-addresses carry a test/main flag;
 * one made for the other network is refused (it would send mainnet money to a testnet habit).
 * Returns an error message instead of throwing so each side maps it to its own error type.
 */
export function resolveDestination(
  value: string,
  network: 'standalone' | 'testnet' | 'mainnet',
  field = 'address',
): ResolvedDestination | { error: string } {
  if (isValidClassicAddress(value)) return { address: value };
  if (!isValidXAddress(value)) return { error: EDGE_MESSAGES.address(field) };
  const decoded = xAddressToClassicAddress(value);
  const wantsTest = network !== 'mainnet';
  if (decoded.test !== wantsTest) {
    return { error: EDGE_MESSAGES.xAddressNetwork(field, network === 'mainnet' ? 'mainnet' : 'test') };
  }
  return decoded.tag === false
    ? { address: decoded.classicAddress }
    : { address: decoded.classicAddress, tag: decoded.tag };
}

/**
 * Ids are integers as written: positive decimal digits with no sign, no leading zero (is `015`
 * fifteen or octal thirteen?), no spaces, no `0x`, exponent or decimals — `0x6`, `6e0`, `+6`, `6.0`,
 * ` 6` or `06` are not id 6 — and at most ID_MAX. A JSON number is taken as the number it is.
 */
const ID_TEXT = /^[1-9][0-9]{0,9}$/;

export function parseId(value: unknown): number | undefined {
  const n =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && ID_TEXT.test(value)
        ? Number(value)
        : NaN;
  return Number.isSafeInteger(n) && n > 0 && n <= ID_MAX ? n : undefined;
}

/** Whole numbers as written: digits, no sign, no leading zero (but 0 itself). */
const WHOLE_TEXT = /^(0|[1-9][0-9]{0,15})$/;

/**
 * A whole number from JSON (an integer) or a form/path (strict decimal text), never coerced: '',
 * '0x10', '1e0', ' 1', '01', true or 1.5 are 400 naming the field and the range.
 */
export const wholeNumberSchema = (
  field: string,
  range: { min?: number; max?: number; message?: string } = {},
) => {
  const min = range.min ?? 0;
  const max = range.max ?? Number.MAX_SAFE_INTEGER;
  const message = range.message ?? `${field} must be a whole number from ${min} to ${max}.`;
  return z.unknown().transform((v, ctx) => {
    const n =
      typeof v === 'number' ? v : typeof v === 'string' && WHOLE_TEXT.test(v) ? Number(v) : Number.NaN;
    if (!Number.isSafeInteger(n) || n < min || n > max) {
      ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    }
    return n;
  });
};

/**
 * THE id schema: every id a route reads — path, query or body — goes through it (or `parseId`,
 * its plain-function form), so no route can accept `0xf`, `15e0`, `" 15"` or a number past ID_MAX.
 * `message` replaces the default sentence where the spec has its own ('Enter valid user ID').
 */
export const idSchema = (field = 'id', message: string = EDGE_MESSAGES.id(field)) =>
  z.unknown().transform((v, ctx) => {
    const id = parseId(v);
    if (id === undefined) {
      ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    }
    return id;
  });

// C0 controls and DEL. Single-line text refuses all of them; multi-line text keeps \t \n \r.
// Matching control characters is the point of these two expressions.
/* eslint-disable no-control-regex */
const SINGLE_LINE_CONTROL = /[\u0000-\u001F\u007F]/;
const MULTI_LINE_CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;
/* eslint-enable no-control-regex */

/** HTML tags are stripped from text people type for others to read (spec 001 §5). */
export function stripHtml(value: string): string {
  return value.replace(/<[^>]*>/g, '');
}

/**
 * Single-line text (names, labels): trimmed, at most `max` (refused above it with a message, never
 * cut), no control characters (NUL included). `html: 'strip'` takes HTML tags out first (names and
 * taglines others read); the length counts what is left.
 */
export const lineText = (field: string, max: number, opts: { html?: 'strip' } = {}) =>
  z
    .string()
    .transform((v) => (opts.html === 'strip' ? stripHtml(v) : v).trim())
    .pipe(
      z
        .string()
        .max(max, `${field} must be at most ${max} characters`)
        .refine((v) => !SINGLE_LINE_CONTROL.test(v), EDGE_MESSAGES.controlChars(field)),
    );

/** Multi-line text (descriptions, memos): line breaks and tabs allowed, other control characters not. */
export const multiLineText = (field: string, max: number, opts: { html?: 'strip' } = {}) =>
  z
    .string()
    .transform((v) => (opts.html === 'strip' ? stripHtml(v) : v))
    .pipe(
      z
        .string()
        .max(max, `${field} must be at most ${max} characters`)
        .refine((v) => !MULTI_LINE_CONTROL.test(v), EDGE_MESSAGES.controlChars(field)),
    );

/** `Idempotency-Key` header: present means it must be well formed (a typo must not disable it). */
export const IDEMPOTENCY_KEY = /^[A-Za-z0-9_.:-]{8,128}$/;
