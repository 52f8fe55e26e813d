import { useSyncExternalStore } from 'react';

/**
 * A phone or a small tablet held upright (under 768 CSS px): the side menu is a closed overlay opened by the
 * header's menu button. The same width as the `@media (max-width: 767.98px)` rules of styles.css.
 */
export const NARROW_SCREEN = '(max-width: 767.98px)';

function subscribe(onChange: () => void): () => void {
  const list = window.matchMedia(NARROW_SCREEN);
  list.addEventListener('change', onChange);
  return () => list.removeEventListener('change', onChange);
}

/** Whether the window is narrow now (it follows a rotation or a resize). */
export function useNarrowScreen(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => window.matchMedia(NARROW_SCREEN).matches,
    () => false,
  );
}
