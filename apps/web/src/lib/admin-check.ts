import { OWNER_USER_ID } from '@ledgerpad/shared';
import { useSession } from './session';

// Whether the signed-in user is an admin, from the user object GET /api/user returns (its
// `isAdmin`), shared by the header (an 'Admin' link for admins only) and the /admin page. No screen
// probes GET /api/admin/check (a 403 for everyone else); the server decides on every admin call.

export type AdminStatus =
  { state: 'pending' } | { state: 'anonymous' } | { state: 'known'; isAdmin: boolean; isOwner: boolean };

export function useAdminStatus(): AdminStatus {
  const session = useSession();
  if (session.status === 'loading') return { state: 'pending' };
  if (session.status === 'anonymous') return { state: 'anonymous' };
  // A login response's user has no isAdmin: the session refetches GET /api/user right after.
  if (session.user.isAdmin === undefined) return { state: 'pending' };
  return {
    state: 'known',
    isAdmin: session.user.isAdmin,
    isOwner: session.user.isAdmin && session.user.id === OWNER_USER_ID,
  };
}

/** true only when the user object says so. */
export function useIsAdmin(): boolean {
  const status = useAdminStatus();
  return status.state === 'known' && status.isAdmin;
}
