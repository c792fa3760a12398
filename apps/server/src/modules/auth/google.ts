import { z } from 'zod';
import { badGateway, unauthorized } from '../../lib/errors';

// Google sign-in with an OAuth access token from the browser. The token is only proof that Google
// issued it to *our* client id: we ask Google's tokeninfo endpoint who it belongs to and for whom it
// was issued, then Google's userinfo endpoint for the profile. The browser's userInfo is ignored.

/** Google's tokeninfo answer for an access token (fields used here; numbers arrive as strings). */
const tokenInfoSchema = z.object({
  aud: z.string().optional(),
  azp: z.string().optional(),
  sub: z.string().min(1),
  expires_in: z.coerce.number(),
  email: z.string().optional(),
  email_verified: z.union([z.string(), z.boolean()]).optional(),
});

/** Google's OpenID Connect userinfo answer. */
const userInfoSchema = z.object({
  sub: z.string().min(1),
  email: z.string().optional(),
  email_verified: z.union([z.string(), z.boolean()]).optional(),
  name: z.string().optional(),
  given_name: z.string().optional(),
  picture: z.string().optional(),
});

export interface GoogleIdentity {
  googleId: string;
  email: string;
  firstName: string | null;
  photoUrl: string | null;
}

export interface GoogleEndpoints {
  clientId: string;
  tokenInfoUrl: string;
  userInfoUrl: string;
  timeoutMs?: number;
}

const rejected = (message = 'Google sign-in could not be verified') => unauthorized(message);

async function getJson(
  url: string,
  init: RequestInit,
  timeoutMs: number,
): Promise<{ status: number; body: unknown }> {
  let res: Response;
  try {
    res = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
  } catch {
    throw badGateway('Google is not reachable; please try again');
  }
  let body: unknown = null;
  try {
    body = await res.json();
  } catch {
    // A non-JSON answer is handled by the status and schema checks below.
  }
  return { status: res.status, body };
}

export async function verifyGoogleAccessToken(token: string, ep: GoogleEndpoints): Promise<GoogleIdentity> {
  const timeoutMs = ep.timeoutMs ?? 5_000;
  const infoUrl = new URL(ep.tokenInfoUrl);
  infoUrl.searchParams.set('access_token', token);
  const info = await getJson(infoUrl.toString(), { method: 'GET' }, timeoutMs);
  // Google answers 400 {"error":"invalid_token"} for bad or expired tokens.
  if (info.status >= 400 && info.status < 500) throw rejected();
  if (info.status !== 200) throw badGateway('Google could not check the sign-in; please try again');
  const tokenInfo = tokenInfoSchema.safeParse(info.body);
  if (!tokenInfo.success) throw rejected();
  const { aud, azp, expires_in } = tokenInfo.data;
  // The token must have been issued to our client: otherwise any site's Google token would sign in.
  if (aud !== ep.clientId && azp !== ep.clientId) throw rejected('Google token was not issued for Ledgerpad');
  if (!(expires_in > 0)) throw rejected('Google token has expired');

  const user = await getJson(
    ep.userInfoUrl,
    { method: 'GET', headers: { authorization: `Bearer ${token}`, accept: 'application/json' } },
    timeoutMs,
  );
  if (user.status >= 400 && user.status < 500) throw rejected();
  if (user.status !== 200) throw badGateway('Google could not check the sign-in; please try again');
  const profile = userInfoSchema.safeParse(user.body);
  if (!profile.success) throw rejected();
  if (profile.data.sub !== tokenInfo.data.sub) throw rejected();
  const email = profile.data.email ?? tokenInfo.data.email;
  if (!email) throw rejected('Google account has no email address; grant the email permission');
  const verified = profile.data.email_verified ?? tokenInfo.data.email_verified;
  if (verified === false || verified === 'false') throw rejected('Google account email is not verified');
  return {
    googleId: profile.data.sub,
    email,
    firstName: profile.data.given_name ?? profile.data.name ?? null,
    photoUrl: profile.data.picture ?? null,
  };
}
