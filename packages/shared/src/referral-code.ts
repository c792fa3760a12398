// A referral code and its link (issue 37, docs/referrals.md). Plain constants and one check, no
// zod: the landing page reads `?ref=` on every first visit, and a schema module there brought zod
// and the address codec into the landing route's JavaScript (issue 40).

/** The query parameter of a referral link: `https://…/?ref=<code>`. */
export const REFERRAL_QUERY_PARAM = 'ref';
/** Codes are 8 characters of an alphabet without look-alikes (no 0/o, 1/l/i). */
export const REFERRAL_CODE_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
export const REFERRAL_CODE_LENGTH = 8;
/** How long a browser keeps a referral code it was given before the visitor signs up. */
export const REFERRAL_CODE_KEEP_DAYS = 30;
/** A code, once trimmed and lower-cased. */
export const REFERRAL_CODE_PATTERN = new RegExp(`^[${REFERRAL_CODE_ALPHABET}]{${REFERRAL_CODE_LENGTH}}$`);

/** The code in a sign-in request's query (`?ref=`), or nothing: a bad code never blocks a sign-in. */
export function parseReferralCode(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const code = value.trim().toLowerCase();
  return REFERRAL_CODE_PATTERN.test(code) ? code : undefined;
}
