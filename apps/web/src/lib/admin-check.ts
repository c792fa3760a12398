import { useQuery } from '@tanstack/react-query';
import { ApiError, apiGet } from './api';

// GET /api/admin/check, asked once per session and shared by the header (an 'Admin' link for
// admins only) and the /admin page (which shows the refusal on a 401/403). The server decides on
// every admin call anyway: this only decides what is shown.

/** Everything under this key is admin data; it is dropped when the session changes. */
export const ADMIN_KEY = ['admin'] as const;
const ADMIN_CHECK_KEY = [...ADMIN_KEY, 'check'] as const;

export interface AdminCheck {
  isAdmin: boolean;
  isOwner: boolean;
}

/**
 * The check's state: pending, an answer (a 401/403 is the answer "not an admin", cached like a yes,
 * so the header and the page ask once), or an error (network, 5xx) the page offers to retry.
 */
export function useAdminCheck(enabled: boolean) {
  return useQuery({
    queryKey: ADMIN_CHECK_KEY,
    queryFn: async ({ signal }): Promise<AdminCheck> => {
      try {
        return await apiGet<AdminCheck>('/api/admin/check', { signal });
      } catch (err) {
        if (err instanceof ApiError && (err.status === 401 || err.status === 403))
          return { isAdmin: false, isOwner: false };
        throw err;
      }
    },
    enabled,
    retry: false,
    staleTime: Infinity,
  });
}

/** true only when the check answered yes; a refusal or a failure reads as no, silently. */
export function useIsAdmin(enabled: boolean): boolean {
  const { data } = useAdminCheck(enabled);
  return enabled && data?.isAdmin === true;
}
