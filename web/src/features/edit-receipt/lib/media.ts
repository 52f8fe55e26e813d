import { useSyncExternalStore } from 'react';

/** Whether the CSS media query matches now; follows it as the window or the device changes. */
export function useMedia(query: string): boolean {
  return useSyncExternalStore(
    (changed) => {
      const list = window.matchMedia(query);
      list.addEventListener('change', changed);
      return () => list.removeEventListener('change', changed);
    },
    () => window.matchMedia(query).matches,
    () => false,
  );
}

/**
 * The edit screen's bar is sticky (one column, styles.css): it keeps to one row, the name and status above it and the
 * status actions but the primary in More.
 */
export const COMPACT = '(max-width: 1100px)';
/** Phones and small tablets: the tools (flag, export, delete, duplicates) go into More as well. */
export const NARROW = '(max-width: 800px)';
/** A touch screen is there (a phone, a tablet, a laptop with one): the viewer offers Select on image. */
export const TOUCH = '(any-pointer: coarse)';

/** The viewer's zoom steps (1 = the page as wide as the pane, up to 900 px). */
export const ZOOM_STEPS = [1, 1.5, 2, 3] as const;

export function nextZoom(current: number, step: 1 | -1): number {
  const at = ZOOM_STEPS.findIndex((z) => z >= current);
  const i = Math.min(ZOOM_STEPS.length - 1, Math.max(0, (at === -1 ? ZOOM_STEPS.length - 1 : at) + step));
  return ZOOM_STEPS[i]!;
}
