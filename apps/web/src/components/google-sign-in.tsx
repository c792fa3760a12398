import { useState } from 'react';
import type { UserResponse } from '@ledgerpad/shared';
import { apiPost } from '../lib/api';
import { withReferral } from '../lib/referral-link';
import { useSessionActions } from '../lib/session';

// Google sign-in with Google Identity Services' token client (spec 000 §7): GIS asks the user in
// Google's own popup and hands back an OAuth access token; the browser looks the profile up with
// it and posts both to /api/auth/google, where the server verifies the token with Google itself.
// The GIS script loads only when the button is pressed: visitors who never use it never fetch it.

const GIS_SRC = 'https://accounts.google.com/gsi/client';
const USERINFO_URL = 'https://www.googleapis.com/oauth2/v3/userinfo';
const SCOPE = 'openid email profile';

interface TokenResponse {
  access_token?: string;
  error?: string;
}

interface GoogleAccounts {
  oauth2: {
    initTokenClient(config: {
      client_id: string;
      scope: string;
      callback: (response: TokenResponse) => void;
      error_callback?: (error: { type: string }) => void;
    }): { requestAccessToken(): void };
  };
}

let gisLoading: Promise<GoogleAccounts> | undefined;

function loadGis(): Promise<GoogleAccounts> {
  const ready = () => (window as unknown as { google?: { accounts?: GoogleAccounts } }).google?.accounts;
  gisLoading ??= new Promise<GoogleAccounts>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = GIS_SRC;
    script.async = true;
    script.onload = () => {
      const accounts = ready();
      if (accounts) resolve(accounts);
      else reject(new Error('Google Identity Services did not load'));
    };
    script.onerror = () => reject(new Error('Google Identity Services did not load'));
    document.head.append(script);
  }).catch((err: unknown) => {
    gisLoading = undefined;
    throw err;
  });
  return gisLoading;
}

function requestToken(accounts: GoogleAccounts, clientId: string): Promise<TokenResponse> {
  return new Promise((resolve) => {
    const client = accounts.oauth2.initTokenClient({
      client_id: clientId,
      scope: SCOPE,
      callback: resolve,
      // The user closed the popup or it was blocked: nothing to sign in with.
      error_callback: (e) => resolve({ error: e.type }),
    });
    client.requestAccessToken();
  });
}

export function GoogleSignIn({ clientId, returnTo }: { clientId: string; returnTo?: string }) {
  const { signedIn } = useSessionActions();
  const [busy, setBusy] = useState(false);

  const signIn = async () => {
    setBusy(true);
    try {
      const accounts = await loadGis();
      const { access_token: token } = await requestToken(accounts, clientId);
      // Spec 000 §5: no access token, or no email in the user info, aborts silently.
      if (!token) return;
      const res = await fetch(USERINFO_URL, { headers: { authorization: `Bearer ${token}` } });
      const userInfo = res.ok ? ((await res.json()) as Record<string, unknown>) : null;
      if (!userInfo || typeof userInfo.email !== 'string' || !userInfo.email) return;
      const { user } = await apiPost<UserResponse>(withReferral('/api/auth/google'), { token, userInfo });
      signedIn(user, returnTo);
    } catch {
      // Login failures are not shown to the user (spec 000 §8); the button simply comes back.
    } finally {
      setBusy(false);
    }
  };

  return (
    <button type="button" className="google-sign-in" onClick={() => void signIn()} disabled={busy}>
      <svg width="18" height="18" viewBox="0 0 48 48" aria-hidden="true">
        <path
          fill="#EA4335"
          d="M24 9.5c3.5 0 6.6 1.2 9.1 3.6l6.8-6.8C35.8 2.4 30.3 0 24 0 14.6 0 6.6 5.4 2.7 13.3l7.9 6.1C12.5 13.6 17.8 9.5 24 9.5z"
        />
        <path
          fill="#4285F4"
          d="M46.1 24.5c0-1.6-.1-3.1-.4-4.5H24v9h12.4c-.5 2.9-2.2 5.3-4.6 6.9l7.4 5.7c4.3-4 6.9-9.9 6.9-17.1z"
        />
        <path
          fill="#FBBC05"
          d="M10.6 28.6c-.5-1.4-.8-3-.8-4.6s.3-3.2.8-4.6l-7.9-6.1C1 16.6 0 20.2 0 24s1 7.4 2.7 10.7l7.9-6.1z"
        />
        <path
          fill="#34A853"
          d="M24 48c6.5 0 11.9-2.1 15.9-5.8l-7.4-5.7c-2.1 1.4-4.8 2.3-8.5 2.3-6.2 0-11.5-4.1-13.4-9.9l-7.9 6.1C6.6 42.6 14.6 48 24 48z"
        />
      </svg>
      {busy ? 'Signing in…' : 'Sign in with Google'}
    </button>
  );
}
