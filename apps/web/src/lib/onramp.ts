import type { OnrampPublicConfig } from '@ledgerpad/shared';
import { useAuthMethods } from './auth-methods';

export type OnrampState =
  { status: 'loading' } | { status: 'off' } | { status: 'configured'; config: OnrampPublicConfig };

/**
 * The card on-ramp's publishable key and environment, from the public sign-in methods call (the
 * same query as the login box, so one request serves both). A failed call reads as "off".
 */
export function useOnrampConfig(): OnrampState {
  const { data, isPending, isError } = useAuthMethods();
  if (isPending) return { status: 'loading' };
  if (isError || !data?.onramp) return { status: 'off' };
  return { status: 'configured', config: data.onramp };
}
