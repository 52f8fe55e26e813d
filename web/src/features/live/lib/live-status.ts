import type { LiveStatus } from './live-client';

/**
 * Whether the live channel is open, which company (or ALL) it follows, and since when: a document list read after
 * that moment is kept current by the channel's events (use-receipt-cache), so it need not be read again when its
 * screen comes back or the window gets the focus. Set by LiveChannel; a closed channel covers nothing.
 */
export interface LiveCoverage {
  set(status: LiveStatus): void;
  follow(scope: string | null): void;
  /** The channel has followed `scope` (a company id; ALL covers every list) without a break since `fetchedAt` or earlier. */
  covers(scope: string, fetchedAt: number): boolean;
}

export function createLiveCoverage(now: () => number = Date.now): LiveCoverage {
  let status: LiveStatus = 'idle';
  let followed: string | null = null;
  let since = Number.POSITIVE_INFINITY;
  const restart = () => {
    since = status === 'open' && followed ? now() : Number.POSITIVE_INFINITY;
  };
  return {
    set(next) {
      if (next === status) return;
      status = next;
      restart();
    },
    follow(scope) {
      if (scope === followed) return;
      followed = scope;
      restart();
    },
    covers(scope, fetchedAt) {
      if (status !== 'open' || !followed) return false;
      if (followed !== 'ALL' && followed !== scope) return false;
      return fetchedAt >= since;
    },
  };
}

/** The one live channel's coverage. */
export const liveStatus = createLiveCoverage();
