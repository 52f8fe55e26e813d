import { SCROLL_ANIMATION_MS, SCROLL_STEP_MS } from '../../../shared/constants';

/**
 * The positions of an animated scroll from `from` to `to` (rules.md 9: 350 ms in steps of 20 ms): one a step,
 * easing in and out, the last one `to`.
 */
export function scrollSteps(from: number, to: number, duration = SCROLL_ANIMATION_MS, step = SCROLL_STEP_MS): number[] {
  const count = Math.max(1, Math.ceil(duration / step));
  return Array.from({ length: count }, (_, k) => {
    const t = (k + 1) / count;
    const eased = t < 0.5 ? 2 * t * t : 1 - (-2 * t + 2) ** 2 / 2;
    return Math.round(from + (to - from) * eased);
  });
}

/** The part of a scrolling container on screen, and its content's height. */
export interface ScrollView {
  /** The container's top and height on screen. */
  top: number;
  height: number;
  scrollTop: number;
  scrollHeight: number;
}

/**
 * Where a container should scroll so that a target (its top and bottom on screen) can be seen: null when it is in
 * view already; otherwise the target a third of the way down the view, within the content's bounds.
 */
export function scrollTargetFor(view: ScrollView, target: { top: number; bottom: number }): number | null {
  if (target.top >= view.top && target.bottom <= view.top + view.height) return null;
  const wanted = view.scrollTop + (target.top - view.top) - view.height / 3;
  const max = Math.max(0, view.scrollHeight - view.height);
  return Math.round(Math.min(max, Math.max(0, wanted)));
}

/** The nearest ancestor of `el` that scrolls vertically (its own content overflows), or null. */
export function scrollParentOf(el: HTMLElement): HTMLElement | null {
  for (let node = el.parentElement; node; node = node.parentElement) {
    const overflow = getComputedStyle(node).overflowY;
    if ((overflow === 'auto' || overflow === 'scroll') && node.scrollHeight > node.clientHeight) return node;
  }
  return null;
}

/** Scrolls `el` to `to` along scrollSteps; the function returned stops it (a newer scroll replaces an older one). */
export function animateScrollTop(el: HTMLElement, to: number): () => void {
  const steps = scrollSteps(el.scrollTop, to);
  let k = 0;
  const timer = setInterval(() => {
    el.scrollTop = steps[k]!;
    k += 1;
    if (k >= steps.length) clearInterval(timer);
  }, SCROLL_STEP_MS);
  return () => clearInterval(timer);
}
