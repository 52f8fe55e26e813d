import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './api-error';

/** Retry only what may succeed on a second try: network failures and 5xx, at most twice. */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (failureCount >= 2) return false;
  if (error instanceof ApiError) return error.isNetwork || error.status >= 500;
  return false;
}

/**
 * How long an answer counts as fresh: a screen shown again (or the window focused) after that reads it again. The
 * document lists override it while the live channel keeps them current (features/receipts/api/receipts.ts).
 */
export const DEFAULT_STALE_MS = 30_000;

/**
 * Writes go out whether or not the browser thinks it is online (`networkMode: 'always'`): offline, the call fails at
 * once and the form says 'No connection to the internet', as the edit screen and uploads do, and keeps what was
 * typed. React Query's default would hold the write, its button spinning without a word, until the network is back
 * and send it then, maybe after the user has left the screen thinking it saved.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: shouldRetry, staleTime: DEFAULT_STALE_MS, refetchOnWindowFocus: true },
      mutations: { retry: false, networkMode: 'always' },
    },
  });
}
