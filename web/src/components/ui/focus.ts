import { useEffect, useLayoutEffect, useRef, type RefObject } from 'react';

/**
 * Where the keyboard focus goes when the control that had it goes away (removed, swapped for another, disabled
 * while it works): never to <body>, where a keyboard or screen-reader user would start again from the page's top.
 * The order: the matching control of the next item (else the previous one), else the dialog it was in, else the
 * page's title (h1), else <main>.
 */

const FOCUSABLE = 'a[href], button, input:not([type="hidden"]), select, textarea, [tabindex]';

/** The focus is nowhere (on <body>): the control that had it went away or was disabled. */
export function focusLost(): boolean {
  return !document.activeElement || document.activeElement === document.body;
}

/** Can `el` take the focus now (connected, not disabled, not inert, drawn)? */
export function canTakeFocus(el: Element | null | undefined): el is HTMLElement {
  if (!(el instanceof HTMLElement) || !el.isConnected) return false;
  if ((el as HTMLButtonElement).disabled || el.closest('[inert]')) return false;
  return el.getClientRects().length > 0;
}

/** Focuses `el` (a heading or other element that is not focusable gets tabIndex -1 first); true when it took it. */
export function focusElement(el: HTMLElement | null | undefined): boolean {
  if (!el || !el.isConnected) return false;
  if (el.tabIndex < 0 && !el.hasAttribute('tabindex')) el.setAttribute('tabindex', '-1');
  el.focus();
  return document.activeElement === el;
}

/** The controls of `root` that Tab reaches, in order (a removed subtree: all of them, it is no longer drawn). */
function controlsOf(root: Element, drawnOnly: boolean): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((x) => x.tabIndex >= 0 && !(x as HTMLButtonElement).disabled && (!drawnOnly || x.getClientRects().length > 0));
}

/**
 * Pure: the order in which to try the other items when the `at`th of `count` goes: the next ones first (nearest
 * first), then the previous ones.
 */
export function neighbourOrder(count: number, at: number): number[] {
  const out: number[] = [];
  for (let i = at + 1; i < count; i++) out.push(i);
  for (let i = at - 1; i >= 0; i--) out.push(i);
  return out;
}

/**
 * Pure: which control of a neighbour item matches the one that had the focus: the one of the same accessible
 * name, else the one at the same place among the item's controls (clamped to the last), else none.
 */
export function matchingControl(labels: readonly (string | null)[], label: string | null, at: number): number | null {
  if (label) {
    const same = labels.indexOf(label);
    if (same >= 0) return same;
  }
  if (!labels.length || at < 0) return null;
  return Math.min(at, labels.length - 1);
}

/** The control in `neighbour` that matches `control` (the `at`th control of its item). */
function matchIn(neighbour: Element, control: HTMLElement, at: number): HTMLElement | null {
  const controls = controlsOf(neighbour, true);
  const i = matchingControl(
    controls.map((c) => c.getAttribute('aria-label')),
    control.getAttribute('aria-label'),
    at,
  );
  return i === null ? null : controls[i]!;
}

/** Items like `item` beside it (same tag and test id), nearest first: the following ones, then the preceding ones. */
function neighboursOf(item: Element, siblings: Element[], at: number): Element[] {
  const like = (el: Element) => el.tagName === item.tagName && el.getAttribute('data-testid') === item.getAttribute('data-testid');
  return neighbourOrder(siblings.length, at)
    .map((i) => siblings[i]!)
    .filter((el) => el !== item && like(el));
}

/**
 * Where the focus goes when nothing near is left: the dialog `from` is in (its first control, else itself), else
 * the page's title (h1), else <main>.
 */
export function fallbackTarget(from?: Element | null): HTMLElement | null {
  const dialog = from?.isConnected ? from.closest<HTMLElement>('[role="dialog"]') : document.querySelector<HTMLElement>('[aria-modal="true"]');
  if (dialog) return controlsOf(dialog, true).find((c) => !c.hasAttribute('data-modal-close')) ?? dialog;
  return document.querySelector<HTMLElement>('main h1, h1') ?? document.querySelector<HTMLElement>('main');
}

/** The matching control of the nearest item beside `item` that has one (the focus is on `control` in `item`). */
export function neighbourControl(item: Element, control: HTMLElement): HTMLElement | null {
  const parent = item.parentElement;
  if (!parent) return null;
  const siblings = [...parent.children];
  const at = controlsOf(item, false).indexOf(control);
  for (const n of neighboursOf(item, siblings, siblings.indexOf(item))) {
    const match = matchIn(n, control, at);
    if (match) return match;
  }
  return null;
}

/**
 * An item of a list (a row, a card) that can be removed: if it holds the focus when it goes, the focus moves to
 * the matching control of the next item (else the previous one), else to `fallback()`, else to the dialog or the
 * page's title. The neighbour is found before the item leaves the page (a layout effect's clean-up) and focused
 * once the change is done, only if the focus was lost and the list is still there (not when the whole list or
 * dialog went, where the dialog gives the focus back itself).
 */
export function useFocusNeighbourOnRemove(ref: RefObject<HTMLElement | null>, fallback?: () => HTMLElement | null | undefined) {
  const fallbackRef = useRef(fallback);
  fallbackRef.current = fallback;
  useLayoutEffect(() => {
    const item = ref.current;
    return () => {
      const active = document.activeElement as HTMLElement | null;
      if (!item || !active || !item.contains(active)) return;
      const parent = item.parentElement;
      const near = neighbourControl(item, active);
      queueMicrotask(() => {
        if (!focusLost() || !parent?.isConnected) return;
        if (near?.isConnected && focusElement(near)) return;
        focusElement(fallbackRef.current?.() ?? fallbackTarget(parent));
      });
    };
    // once per item: its element stays the same while it is on the page
  }, []);
}

/**
 * A control swapped for another (Edit Grid for Cancel and Apply, Rename for its text field): when `key` changes and
 * the focus was lost with the old control, it goes to `target()`.
 */
export function useRefocusOnSwap(key: unknown, target: () => HTMLElement | null | undefined) {
  const targetRef = useRef(target);
  targetRef.current = target;
  const first = useRef(true);
  useLayoutEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    if (focusLost()) focusElement(targetRef.current());
  }, [key]);
}

/**
 * The signed-in frame's safety net: when the focused control leaves the page (or is disabled) and the focus falls
 * to <body>, it goes to the matching control of the removed item's neighbour, else to the nearest focusable
 * element around the disabled control (a list row), else to the dialog or the page's title.
 */
export function useFocusRescue() {
  useEffect(() => {
    let last: HTMLElement | null = null;
    const onFocusIn = (e: FocusEvent) => {
      if (e.target instanceof HTMLElement) last = e.target;
    };
    const observer = new MutationObserver((records) => {
      const gone = last;
      if (!gone || !focusLost()) return;
      // only when a change on the page took the focus away (not a click on the page's background)
      const removal = records.find((r) => [...r.removedNodes].some((n) => n.contains(gone)));
      const disabling = records.some((r) => r.type === 'attributes' && r.target === gone);
      if (!removal && !disabling) return;
      if (gone.isConnected) {
        // moved (a row moved down the list): it again
        if (canTakeFocus(gone) && focusElement(gone)) return;
        // disabled while it works: its row (or other focusable element around it), else the page's fallback
        const around = gone.parentElement?.closest<HTMLElement>('[tabindex]:not([tabindex="-1"])');
        focusElement(around && canTakeFocus(around) ? around : fallbackTarget(gone));
        return;
      }
      const removed = removal ? [...removal.removedNodes].find((n): n is Element => n instanceof Element && n.contains(gone)) : undefined;
      if (removal && removed) {
        const at = controlsOf(removed, false).indexOf(gone);
        // beside it: another item like it (a row, a card), or another control where a control was swapped
        const like = (b: Element) => b.tagName === removed.tagName && b.getAttribute('data-testid') === removed.getAttribute('data-testid');
        const beside = [removal.nextSibling, removal.previousSibling].filter((n): n is Element => n instanceof Element && n.isConnected);
        for (const b of beside) {
          const match = removed === gone ? (b.matches(FOCUSABLE) && canTakeFocus(b) ? b : null) : like(b) ? matchIn(b, gone, at) : null;
          if (match && focusElement(match as HTMLElement)) return;
        }
      }
      focusElement(fallbackTarget(removal?.target instanceof Element && removal.target.isConnected ? removal.target : null));
    });
    document.addEventListener('focusin', onFocusIn);
    observer.observe(document.body, { childList: true, subtree: true, attributes: true, attributeFilter: ['disabled'] });
    return () => {
      document.removeEventListener('focusin', onFocusIn);
      observer.disconnect();
    };
  }, []);
}
