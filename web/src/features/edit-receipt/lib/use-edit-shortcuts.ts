import { useEffect, useRef, type MutableRefObject } from 'react';
import { dialogOpen } from '../../../components/ui/dialog-layer';
import { shortcutOf } from './keyboard';

/**
 * A move to another document (Previous, Next, the move after an action) until that document's screen is mounted:
 * the route renders in a transition, so the screen being left still takes keys after the address changed (Alt+→
 * Alt+← pressed at once went two back: the ← was the left screen's). Keys pressed meanwhile act on no document
 * (an action would be the left one's); the last Previous/Next among them is made from the document moved to once it
 * is shown.
 */
export interface Move {
  to: string;
  queued: 'nextDocument' | 'previousDocument' | null;
}

/** What the edit screen's shortcuts (lib/keyboard.ts) do: the screen's handlers as they are at the moment of the key. */
export interface ShortcutHandlers {
  goNext(): void;
  goPrevious(): void;
  toggleFlag(): unknown;
  act(action: 'confirm' | 'review' | 'reject'): unknown;
  saveNow(): unknown;
  toggleHelp(): void;
  /** Esc: closes what is open (grid editing, then a side panel); false when nothing was, and the key goes on. */
  back(): boolean;
}

/** The focusable field inputs of the form, the next (`step` 1) or previous (-1) of the focused one, focused. */
function moveField(step: number): void {
  const inputs = [...document.querySelectorAll<HTMLElement>('[data-field-input]')].filter((x) => !(x as HTMLInputElement).disabled);
  const at = inputs.findIndex((x) => x === document.activeElement);
  inputs[Math.min(inputs.length - 1, Math.max(0, at + step))]?.focus();
}

/**
 * The edit screen's keyboard (lib/keyboard.ts) for the document `receiptId`: keys act through `handlers`, never while
 * a pop-up is open (`popupOpen`, or any modal dialog) and never on a document being left (`moving`); a Previous/Next
 * pressed during a move is made once the document moved to is shown.
 */
export function useEditShortcuts({ receiptId, moving, popupOpen, handlers }: { receiptId: string; moving: MutableRefObject<Move | null>; popupOpen: boolean; handlers: ShortcutHandlers }): void {
  const handlersRef = useRef(handlers);
  handlersRef.current = handlers;
  const popupRef = useRef(popupOpen);
  popupRef.current = popupOpen;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const el = e.target as HTMLElement | null;
      const inField = Boolean(el && (el.tagName === 'INPUT' || el.tagName === 'TEXTAREA' || el.tagName === 'SELECT'));
      // With a pop-up open (Delete, Lines, Export…) the keys are the pop-up's: no action on the document behind it.
      const inDialog = popupRef.current || dialogOpen();
      const s = shortcutOf({ key: e.key, code: e.code, altKey: e.altKey, ctrlKey: e.ctrlKey, metaKey: e.metaKey, shiftKey: e.shiftKey, inField, inDialog });
      if (!s) return;
      const move = moving.current;
      if (move && move.to !== receiptId) {
        // this screen is being left (Move): nothing acts on its document; a Previous/Next waits for the next one
        e.preventDefault();
        if (s === 'nextDocument' || s === 'previousDocument') move.queued = s;
        return;
      }
      const h = handlersRef.current;
      switch (s) {
        case 'nextField':
          moveField(1);
          break;
        case 'previousField':
          moveField(-1);
          break;
        case 'nextDocument':
          h.goNext();
          break;
        case 'previousDocument':
          h.goPrevious();
          break;
        case 'confirm':
        case 'review':
        case 'reject':
          void h.act(s);
          break;
        case 'flag':
          void h.toggleFlag();
          break;
        case 'saveNow':
          void h.saveNow();
          break;
        case 'help':
          h.toggleHelp();
          break;
        case 'back':
          if (!h.back()) return;
          break;
      }
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [moving, receiptId]);

  // The document moved to is shown: the move is over, and a Previous/Next pressed during it is made from here
  useEffect(() => {
    const move = moving.current;
    if (!move) return;
    moving.current = null;
    if (move.to !== receiptId) return;
    if (move.queued === 'nextDocument') handlersRef.current.goNext();
    else if (move.queued === 'previousDocument') handlersRef.current.goPrevious();
  }, [moving, receiptId]);
}
