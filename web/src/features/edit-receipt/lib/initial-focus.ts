import { useEffect, useRef } from 'react';
import type { Tab } from './form';

/**
 * Where the keyboard focus goes when a document opens on the edit screen (from the list, or after CONFIRM, REVIEW,
 * REJECT, previous and next, which open the next document): to the first field to correct, else to the form's first
 * field, so that a bookkeeper goes on typing without Tabbing through the bar first. A read-only document, a touch
 * screen (a field's focus would open its keyboard) or a user who already moved the focus while the document loaded
 * keep the focus where it is.
 */

/** A field of the form as the choice reads it (FormField of lib/form.ts). */
export interface FocusField {
  id: string;
  required: boolean;
  value: string;
}

/**
 * Pure: the field to focus, from the form's tabs in their order (Item Details, then Advanced): the first field with
 * an error (the server's, or a typed value's) or required and empty, else the first field of the first tab that has
 * one; null when the form has no field.
 */
export function initialField(tabs: readonly { tab: Tab; fields: readonly FocusField[] }[], errors: Readonly<Record<string, string>>, drafts: Readonly<Record<string, string>> = {}): { id: string; tab: Tab } | null {
  for (const { tab, fields } of tabs) {
    for (const f of fields) {
      const value = f.id in drafts ? drafts[f.id]! : f.value;
      if (errors[f.id] || (f.required && !value.trim())) return { id: f.id, tab };
    }
  }
  for (const { tab, fields } of tabs) if (fields.length) return { id: fields[0]!.id, tab };
  return null;
}

/**
 * Pure: whether the focus is free to take: nowhere (on <body>), or where the app put it when the screen before went
 * (the page's title or <main>, components/ui/focus.ts), not on a control the user chose.
 */
export function focusIsFree(active: Element | null, body: Element | null): boolean {
  if (!active || active === body) return true;
  return active.tagName === 'MAIN' || active.tagName === 'H1';
}

const MODIFIERS = new Set(['Alt', 'AltGraph', 'Control', 'Meta', 'Shift', 'CapsLock']);

/**
 * Once the document is `ready` (its content and the company's schema loaded, the fields drawn): the focus goes to
 * `target()`'s field, after switching to its tab (`showTab`) when it is on the other one; `focused(id)` is told (the
 * screen announces the document). Only once per document (the screen is mounted once per document), and not when
 * `skip` (read-only), on a touch screen, when the user pressed a key or the pointer since the screen mounted, or when
 * the focus is on a control.
 */
export function useInitialFieldFocus({
  ready,
  skip,
  tab,
  target,
  showTab,
  focused,
}: {
  ready: boolean;
  skip: boolean;
  tab: Tab;
  target(): { id: string; tab: Tab } | null;
  showTab(tab: Tab): void;
  focused(id: string): void;
}) {
  const done = useRef(false);
  const pending = useRef<string | null>(null);
  const moved = useRef(false);
  const latest = useRef({ target, showTab, focused });
  latest.current = { target, showTab, focused };

  // Capture listeners, added after the key or click that opened the screen went through: that one does not count
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!MODIFIERS.has(e.key)) moved.current = true;
    };
    const onPointer = () => {
      moved.current = true;
    };
    window.addEventListener('keydown', onKey, true);
    window.addEventListener('pointerdown', onPointer, true);
    return () => {
      window.removeEventListener('keydown', onKey, true);
      window.removeEventListener('pointerdown', onPointer, true);
    };
  }, []);

  useEffect(() => {
    const take = (id: string) => {
      pending.current = null;
      const el = document.getElementById(`field-${id}`);
      if (!el || moved.current || !focusIsFree(document.activeElement, document.body)) return;
      el.focus();
      if (document.activeElement === el) latest.current.focused(id);
    };
    if (pending.current !== null) {
      take(pending.current);
      return;
    }
    if (done.current || !ready) return;
    done.current = true;
    if (skip || moved.current || window.matchMedia('(pointer: coarse)').matches) return;
    const to = latest.current.target();
    if (!to) return;
    if (to.tab !== tab) {
      // focused once its tab is drawn (this effect again, on the tab's change)
      pending.current = to.id;
      latest.current.showTab(to.tab);
      return;
    }
    take(to.id);
  }, [ready, skip, tab]);
}
