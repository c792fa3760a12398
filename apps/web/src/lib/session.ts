import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import {
  SESSION_KEEPALIVE_MS,
  USER_REQUEST_TIMEOUT_MS,
  type HasDeployedResponse,
  type SessionResponse,
  type User,
  type UserResponse,
} from '@ledgerpad/shared';
import { apiGet, apiPost, resetCsrfToken } from './api';
import { adminKeys, sessionKeys } from './query-keys';
import { forgetReferral } from './referral-link';

export type SessionState =
  { status: 'loading' } | { status: 'anonymous' } | { status: 'signed-in'; user: User };

/**
 * Session (spec §4): loading, then signed-in or anonymous (on 401 or after 5 s). The first read is
 * GET /api/session (200 for a visitor too: no failed request in a visitor's console); once signed
 * in, the spec's keep-alive ping to GET /api/user every 5 minutes (a 401 there: signed out).
 */
export function useSession(): SessionState {
  const queryClient = useQueryClient();
  const { data, isPending } = useQuery({
    queryKey: sessionKeys.user(),
    queryFn: async ({ signal }) => {
      const timeout = AbortSignal.timeout(USER_REQUEST_TIMEOUT_MS);
      const init = { signal: AbortSignal.any([signal, timeout]) };
      try {
        const known = queryClient.getQueryData<User | null>(sessionKeys.user());
        if (known) return (await apiGet<UserResponse>('/api/user', init)).user;
        return (await apiGet<SessionResponse>('/api/session', init)).user;
      } catch {
        return null;
      }
    },
    refetchInterval: SESSION_KEEPALIVE_MS,
    staleTime: SESSION_KEEPALIVE_MS,
    retry: false,
  });
  if (isPending) return { status: 'loading' };
  return data ? { status: 'signed-in', user: data } : { status: 'anonymous' };
}

/** Token Dashboard shows only for users who deployed a token; any failure reads as "no". */
export function useHasDeployed(enabled: boolean): boolean {
  const { data } = useQuery({
    queryKey: sessionKeys.hasDeployed(),
    queryFn: async () => {
      try {
        return (await apiGet<HasDeployedResponse>('/api/dashboard/has-deployed-token')).hasDeployed === true;
      } catch {
        return false;
      }
    },
    enabled,
  });
  return enabled && data === true;
}

/**
 * Login sets the user, goes to / (or back to the page that asked for a sign-in) and rechecks
 * has-deployed; logout clears both and goes to /.
 */
export function useSessionActions() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const signedIn = useCallback(
    (user: User, returnTo = '/') => {
      resetCsrfToken();
      // A referral binds at the first sign-in only: whatever this one did, the code is spent.
      forgetReferral();
      queryClient.setQueryData(sessionKeys.user(), user);
      // GET /api/user carries what a login response does not (isAdmin).
      void queryClient.invalidateQueries({ queryKey: sessionKeys.user() });
      void queryClient.invalidateQueries({ queryKey: sessionKeys.hasDeployed() });
      // The admin check (and any admin data) belonged to the previous session.
      queryClient.removeQueries({ queryKey: adminKeys.all() });
      // The login boxes live on / and on the page that asked for a sign-in: no new history entry.
      void navigate(returnTo, { replace: true });
    },
    [queryClient, navigate],
  );
  const logout = useCallback(async () => {
    try {
      await apiPost('/api/auth/logout');
    } catch {
      // Logged only (spec §8): the local session is cleared either way.
    }
    resetCsrfToken();
    // Browser wallets lock at sign-out (if their code was never loaded, none is unlocked).
    void import('./signer/lock').then((m) => m.lockAll());
    queryClient.setQueryData(sessionKeys.user(), null);
    queryClient.setQueryData(sessionKeys.hasDeployed(), false);
    queryClient.removeQueries({ queryKey: adminKeys.all() });
    void navigate('/');
  }, [queryClient, navigate]);
  return { signedIn, logout };
}

export function displayName(user: User): string {
  return user.first_name || user.username || 'User';
}
