import { useQuery } from '@tanstack/react-query';
import {
  POSITIONS_MESSAGES,
  POSITIONS_REFRESH_MS,
  positionsResponseSchema,
  type PositionView,
} from '@ledgerpad/shared';
import { apiGet } from '../../lib/api';
import { positionKeys } from './keys';

// Server state of the positions page: the user's own positions, refreshed every 5 s (spec §9).

export function usePositions(userId: number | undefined) {
  return useQuery({
    queryKey: positionKeys.of(userId),
    queryFn: async ({ signal }): Promise<PositionView[]> => {
      const parsed = positionsResponseSchema.safeParse(await apiGet(`/api/positions/${userId}`, { signal }));
      if (!parsed.success) throw new Error(POSITIONS_MESSAGES.fetchFailed);
      return parsed.data.positions;
    },
    enabled: userId !== undefined,
    refetchInterval: POSITIONS_REFRESH_MS,
    // The 5 s tick is the retry: a failed refresh keeps the last figures on screen until it.
    retry: false,
  });
}
