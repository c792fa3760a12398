import { useQuery } from '@tanstack/react-query';
import type { AuthMethods, OnrampPublicConfig } from '@ledgerpad/shared';
import { apiGet } from './api';

export type OnrampState =
  { status: 'loading' } | { status: 'off' } | { status: 'configured'; config: OnrampPublicConfig };

/**
 * The card on-ramp's publishable key and environment, from the public sign-in methods call (the
 * same query as the login box, so one request serves both). A failed call reads as "off".
 */
export function useOnrampConfig(): OnrampState {
  const { data, isPending, isError } = useQuery({
    queryKey: ['auth-methods'],
    queryFn: () => apiGet<AuthMethods>('/api/auth/methods', { credentials: false }),
  });
  if (isPending) return { status: 'loading' };
  if (isError || !data?.onramp) return { status: 'off' };
  return { status: 'configured', config: data.onramp };
}
