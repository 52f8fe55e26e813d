import { useCallback, useEffect, useState } from 'react';
import { todayIso } from './list-params';

/** Milliseconds from `now` to the next local midnight (a day of 23 or 25 hours when the clocks change). */
export function msUntilNextDay(now: Date): number {
  const next = new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1, 0, 0, 0, 0);
  return Math.max(1, next.getTime() - now.getTime());
}

/** The window and document events after which the day may have changed unseen (a subset of the DOM's). */
export interface TodayTargets {
  document: Pick<EventTarget, 'addEventListener' | 'removeEventListener'>;
  window: Pick<EventTarget, 'addEventListener' | 'removeEventListener'>;
}

/**
 * Tells `onDay` today's local day (YYYY-MM-DD) whenever it changes: at local midnight, and when the window gets the
 * focus or the page is shown again (a computer that slept past midnight runs no timer). Returns the stop.
 */
export function watchToday(targets: TodayTargets, onDay: (today: string) => void, now: () => Date = () => new Date()): () => void {
  let day = todayIso(now());
  let timer: ReturnType<typeof setTimeout> | null = null;
  const check = () => {
    const current = todayIso(now());
    if (current !== day) {
      day = current;
      onDay(current);
    }
  };
  const arm = () => {
    timer = setTimeout(() => {
      check();
      arm();
    }, msUntilNextDay(now()));
  };
  arm();
  targets.window.addEventListener('focus', check);
  targets.document.addEventListener('visibilitychange', check);
  return () => {
    if (timer) clearTimeout(timer);
    targets.window.removeEventListener('focus', check);
    targets.document.removeEventListener('visibilitychange', check);
  };
}

/**
 * Today's local day, kept current across midnight for a tab left open; `refresh` reads the clock again (a date
 * input calls it when it is about to open its picker, so its `max` is today's).
 */
export function useToday(): { today: string; refresh(): void } {
  const [today, setToday] = useState(() => todayIso());
  useEffect(() => watchToday({ document, window }, setToday), []);
  const refresh = useCallback(() => setToday(todayIso()), []);
  return { today, refresh };
}
