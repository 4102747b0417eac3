import { QUERY_CACHE_MS } from '@eelarve/shared';
import { QueryClient } from '@tanstack/react-query';
import { isApiError } from './errors';

/** Client errors (4xx) are answers, not glitches: retry only network and server failures, once. */
function shouldRetry(failureCount: number, error: unknown): boolean {
  if (isApiError(error) && error.status >= 400 && error.status < 500) return false;
  return failureCount < 1;
}

/** Unused query data is kept, and refetched, after 180 s (spec 1, section 4). */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: QUERY_CACHE_MS, gcTime: QUERY_CACHE_MS, retry: shouldRetry, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
}
