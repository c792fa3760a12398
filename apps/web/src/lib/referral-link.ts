import { REFERRAL_CODE_KEEP_DAYS, REFERRAL_QUERY_PARAM, parseReferralCode } from '@ledgerpad/shared';

// A referral link (`/?ref=<code>`, docs/referrals.md) is remembered by the browser until the visitor
// signs up: the code is kept in localStorage (the last link followed wins) for 30 days, taken out of
// the address bar, and sent with the sign-in request as `?ref=`. The server binds it only if that
// sign-in creates the user; any sign-in clears it here.

const STORE_KEY = 'ledgerpad_ref';
const KEEP_MS = REFERRAL_CODE_KEEP_DAYS * 24 * 3600 * 1000;

/** At start: a `?ref=` in the address is remembered and removed from the address bar. */
export function captureReferral(): void {
  const url = new URL(window.location.href);
  const raw = url.searchParams.get(REFERRAL_QUERY_PARAM);
  if (raw === null) return;
  const code = parseReferralCode(raw);
  try {
    if (code) localStorage.setItem(STORE_KEY, JSON.stringify({ code, at: Date.now() }));
  } catch {
    // Storage refused (private mode): the link still worked for this page.
  }
  url.searchParams.delete(REFERRAL_QUERY_PARAM);
  window.history.replaceState(window.history.state, '', `${url.pathname}${url.search}${url.hash}`);
}

/** The remembered code, if one was followed in the last 30 days. */
export function pendingReferral(): string | undefined {
  try {
    const stored = JSON.parse(localStorage.getItem(STORE_KEY) ?? 'null') as {
      code?: unknown;
      at?: unknown;
    } | null;
    if (!stored || typeof stored.at !== 'number' || Date.now() - stored.at > KEEP_MS) return undefined;
    return parseReferralCode(stored.code);
  } catch {
    return undefined;
  }
}

/** A sign-in route with the remembered code: `/api/auth/demo?ref=…` (or the route as it is). */
export function withReferral(path: string): string {
  const code = pendingReferral();
  return code ? `${path}?${REFERRAL_QUERY_PARAM}=${encodeURIComponent(code)}` : path;
}

/** After any sign-in: the code has been used (or the account existed already). */
export function forgetReferral(): void {
  try {
    localStorage.removeItem(STORE_KEY);
  } catch {
    // nothing kept
  }
}
