import { useCallback, useLayoutEffect, useRef } from 'react';

/**
 * A function whose identity never changes and that calls the latest `fn` given: a callback handed to memoized
 * children (the Lines pop-up's rows, the page viewer) without rendering them again whenever the screen renders.
 * Meant for event handlers (called after rendering), not for use while rendering.
 */
export function useStableCallback<A extends unknown[], R>(fn: (...args: A) => R): (...args: A) => R {
  const ref = useRef(fn);
  useLayoutEffect(() => {
    ref.current = fn;
  });
  return useCallback((...args: A) => ref.current(...args), []);
}
