import type { Me } from '@eelarve/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { ME_QUERY_KEY } from '../auth/api';

/** Refreshes the signed-in user after a change of the account (or takes the server's new copy). */
export function useRefreshMe(): (next?: Me) => Promise<void> {
  const queryClient = useQueryClient();
  return useCallback(
    async (next?: Me) => {
      if (next && typeof next === 'object' && 'id' in next) queryClient.setQueryData(ME_QUERY_KEY, next);
      else await queryClient.invalidateQueries({ queryKey: ME_QUERY_KEY });
    },
    [queryClient],
  );
}
