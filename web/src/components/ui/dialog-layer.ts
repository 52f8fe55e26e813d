import { useEffect, useRef, type RefObject } from 'react';
import { canTakeFocus, fallbackTarget, focusElement } from './focus';

/**
 * What a modal dialog (Modal, SidePanel) does with the keyboard: it takes the focus when it opens and gives it
 * back when it closes; Tab and Shift+Tab go round its own controls; Escape closes it and goes no further (the
 * screen under it does not act on it too). Dialogs opened over one another form a stack: only the top one
 * answers keys.
 */

const stack: object[] = [];

/** Any modal dialog open (the edit screen's shortcuts wait while one is). */
export function dialogOpen(): boolean {
  return stack.length > 0 || document.querySelector('[aria-modal="true"]') !== null;
}

/**
 * Where Tab goes in a dialog of `count` focusable controls when the focus is on the `at`th (-1: outside
 * them): the index to focus, or null to leave it to the browser (a step inside the dialog).
 */
export function trapStep(count: number, at: number, back: boolean): number | null {
  if (count === 0) return null;
  if (at < 0) return back ? count - 1 : 0;
  if (back && at === 0) return count - 1;
  if (!back && at === count - 1) return 0;
  return null;
}

/**
 * Where the focus goes when a dialog closes: the target the dialog's owner gives (the next row's control when
 * the row of the trigger was deleted), else the control that opened it if it can still take the focus (still on
 * the page, not disabled), else `fallback()` (another dialog under it, the page's title, <main>); never <body>.
 */
export function returnFocusTarget(
  given: HTMLElement | null | undefined,
  trigger: HTMLElement | null,
  fallback: () => HTMLElement | null,
  focusable: (el: HTMLElement | null | undefined) => boolean = canTakeFocus,
): HTMLElement | null {
  if (given && focusable(given)) return given;
  if (trigger && trigger.tagName !== 'BODY' && focusable(trigger)) return trigger;
  return fallback();
}

const FOCUSABLE = 'a[href], button:not(:disabled), input:not(:disabled):not([type="hidden"]), select:not(:disabled), textarea:not(:disabled), iframe, [tabindex]:not([tabindex="-1"])';

function focusables(el: HTMLElement): HTMLElement[] {
  return [...el.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((x) => x.tabIndex >= 0 && x.getClientRects().length > 0 && !x.closest('[inert]'));
}

/**
 * Makes `ref`'s element a modal dialog while mounted. `initialFocus`: 'first' focuses its first field, button or
 * drop zone that can take the focus (other than a link or a close button marked data-modal-close), 'container' the
 * element itself (tabIndex -1).
 * `onClose` undefined: Escape does nothing (a dialog that cannot be dismissed).
 * `returnFocus`: asked when it closes; where the focus goes then (returnFocusTarget).
 */
export function useDialogLayer(
  ref: RefObject<HTMLElement | null>,
  onClose: (() => void) | undefined,
  initialFocus: 'first' | 'container' = 'first',
  returnFocus?: () => HTMLElement | null | undefined,
) {
  const closeRef = useRef(onClose);
  closeRef.current = onClose;
  const returnRef = useRef(returnFocus);
  returnRef.current = returnFocus;

  useEffect(() => {
    const layer = {};
    stack.push(layer);
    const previous = document.activeElement as HTMLElement | null;
    const el = ref.current;
    // (of what can take the focus: the Upload XLSX pop-up's first input is its drop zone's hidden file input, and the
    // focus stayed behind the pop-up on the button that opened it)
    const first = initialFocus === 'first' && el ? (focusables(el).find((x) => !x.hasAttribute('data-modal-close') && !x.matches('a[href]')) ?? null) : null;
    (first ?? el)?.focus();

    const onKey = (e: KeyboardEvent) => {
      if (stack[stack.length - 1] !== layer || !el) return;
      if (e.key === 'Escape') {
        e.stopPropagation();
        closeRef.current?.();
      } else if (e.key === 'Tab' && !e.altKey && !e.ctrlKey && !e.metaKey) {
        const items = focusables(el);
        const to = trapStep(items.length, items.indexOf(document.activeElement as HTMLElement), e.shiftKey);
        if (to !== null) {
          e.preventDefault();
          items[to]!.focus();
        } else if (items.length === 0) {
          e.preventDefault();
          el.focus();
        }
      }
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      stack.splice(stack.indexOf(layer), 1);
      const to = returnFocusTarget(returnRef.current?.(), previous, fallbackTarget);
      if (to) focusElement(to);
    };
    // Once per opening: the focus moves in when the dialog opens and back when it closes.
  }, []);
}
