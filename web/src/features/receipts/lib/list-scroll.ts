import { useCallback, useEffect, useLayoutEffect, useRef, type RefObject } from 'react';
import { useLocation, useNavigationType } from 'react-router-dom';

/**
 * Where a document list was scrolled, per list address (sessionStorage): the row at the top of the window and how
 * far it stood from the window's top, and the window's offset when no row is there. Coming back to the list puts
 * that row where it was: the browser's Back (a POP navigation), and the edit screen's Back, which goes to the list's
 * address (a new entry) — restored once after a document was opened from the list (`opened`). Coming back from a
 * document, the focus goes to the row of the document last open (the edit screen's Back names it, `ListReturnState`;
 * the browser's Back returns from the one opened), so the keyboard goes on from there.
 */
export interface ListScrollEntry {
  address: string;
  anchorId: string | null;
  anchorTop: number;
  scrollY: number;
  /** Saved as a document of the list was opened: the next visit of the address comes back to it. */
  opened?: boolean;
  /** The document opened then (its row takes the focus on the way back). */
  openedId?: string | null;
}

/** The navigation state of the edit screen's Back to its list: the document last open there. */
export interface ListReturnState {
  fromDocument?: string;
}

const PREFIX = 'receipts-list-scroll:';
const SAVE_DELAY_MS = 120;

export const listScrollStorageKey = (address: string) => `${PREFIX}${address}`;

export function readListScroll(storage: Pick<Storage, 'getItem'>, address: string): ListScrollEntry | null {
  try {
    const raw = storage.getItem(listScrollStorageKey(address));
    if (!raw) return null;
    const entry = JSON.parse(raw) as Partial<ListScrollEntry>;
    if (entry.address !== address || typeof entry.scrollY !== 'number') return null;
    return {
      address,
      anchorId: typeof entry.anchorId === 'string' ? entry.anchorId : null,
      anchorTop: Number(entry.anchorTop) || 0,
      scrollY: entry.scrollY,
      opened: entry.opened === true,
      ...(typeof entry.openedId === 'string' ? { openedId: entry.openedId } : {}),
    };
  } catch {
    return null;
  }
}

export function writeListScroll(storage: Pick<Storage, 'setItem'>, entry: ListScrollEntry): void {
  try {
    storage.setItem(listScrollStorageKey(entry.address), JSON.stringify(entry));
  } catch {
    // storage full or blocked: Back starts at the top
  }
}

/** Whether a visit of the list (how it was navigated to) comes back to the saved place. */
export function restoresOnVisit(entry: ListScrollEntry | null, navigationType: 'POP' | 'PUSH' | 'REPLACE'): boolean {
  return entry !== null && (navigationType === 'POP' || entry.opened === true);
}

/**
 * Pure: the rows to focus on a visit of the list, the first one found on the page: on the way back from a document
 * (the visit after one was opened), the row of the document last open (`fromDocument`, the edit screen's Back), else
 * of the one opened, else the row the place was kept by; none on any other visit.
 */
export function rowsToFocus(entry: ListScrollEntry | null, fromDocument: string | null | undefined): string[] {
  if (!entry?.opened) return [];
  return [...new Set([fromDocument, entry.openedId, entry.anchorId].filter((id): id is string => typeof id === 'string' && id !== ''))];
}

/** The first row whose bottom is below the window's top edge (rows are in order: a binary search), and its offset. */
function topRow(table: HTMLTableElement | null): { anchorId: string | null; anchorTop: number } {
  const rows = table?.tBodies[0]?.rows;
  if (!rows || rows.length === 0) return { anchorId: null, anchorTop: 0 };
  let lo = 0;
  let hi = rows.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (rows[mid]!.getBoundingClientRect().bottom > 0) hi = mid;
    else lo = mid + 1;
  }
  const row = rows[lo]!;
  const top = row.getBoundingClientRect().top;
  if (top >= window.innerHeight) return { anchorId: null, anchorTop: 0 };
  return { anchorId: row.dataset.receiptId ?? null, anchorTop: Math.round(top) };
}

/**
 * Keeps the list's scroll place for Back: saved while scrolling (debounced) and just before the user leaves
 * (a pointer or key press: a row, a link, the menu), restored once the rows are rendered on a Back.
 * `ready`: the list's rows are in the DOM. Returns `save`, to call before navigating away from code.
 */
export function useListScroll(table: RefObject<HTMLTableElement | null>, ready: boolean): (options?: { opened?: boolean; openedId?: string }) => void {
  const location = useLocation();
  const navigationType = useNavigationType();
  const address = `${location.pathname}${location.search}`;
  const fromDocument = (location.state as ListReturnState | null)?.fromDocument;

  const save = useCallback(
    (options?: { opened?: boolean; openedId?: string }) => {
      writeListScroll(sessionStorage, { address, scrollY: Math.round(window.scrollY), ...topRow(table.current), opened: options?.opened, openedId: options?.openedId });
    },
    [address, table],
  );

  const restored = useRef(false);
  useLayoutEffect(() => {
    if (restored.current || !ready) return;
    restored.current = true;
    const entry = readListScroll(sessionStorage, address);
    if (entry?.opened) writeListScroll(sessionStorage, { ...entry, opened: false });
    if (!restoresOnVisit(entry, navigationType)) return;
    const rowOf = (id: string) => table.current?.querySelector<HTMLElement>(`[data-receipt-id="${CSS.escape(id)}"]`) ?? null;
    // Back from a document: its row takes the focus (the place is kept: brought into sight only when outside it),
    // unless the user already put the focus on a control (the app leaves it on the page's title, or nowhere)
    const focusRow = () => {
      const active = document.activeElement;
      if (active && active !== document.body && !active.matches('h1, main')) return;
      for (const id of rowsToFocus(entry, fromDocument)) {
        const target = rowOf(id);
        if (!target) continue;
        target.focus({ preventScroll: true });
        const box = target.getBoundingClientRect();
        if (box.top < 0 || box.bottom > window.innerHeight) target.scrollIntoView({ block: 'nearest' });
        return;
      }
    };
    const row = entry!.anchorId ? rowOf(entry!.anchorId) : null;
    if (!row) {
      window.scrollTo(0, entry!.scrollY);
      focusRow();
      return;
    }
    const anchorTop = entry!.anchorTop;
    const place = () => window.scrollTo(0, window.scrollY + row.getBoundingClientRect().top - anchorTop);
    place();
    focusRow();
    // Rows above that still change their height in the next frames (late fonts, a live update): put the row back
    // where it was, unless the user scrolled meanwhile.
    let frames = 0;
    let frame = 0;
    let expected = window.scrollY;
    const settle = () => {
      if (Math.abs(window.scrollY - expected) > 1 || !row.isConnected) return;
      if (Math.abs(row.getBoundingClientRect().top - anchorTop) >= 1) place();
      expected = window.scrollY;
      if (++frames < 10) frame = requestAnimationFrame(settle);
    };
    frame = requestAnimationFrame(settle);
    return () => cancelAnimationFrame(frame);
    // (`fromDocument` is read once, on the visit's first render with rows)
  }, [ready, navigationType, address, table]);

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | null = null;
    const later = () => {
      if (!restored.current) return;
      if (timer === null) timer = setTimeout(() => ((timer = null), save()), SAVE_DELAY_MS);
    };
    // before a click or key leaves the list (a row, a link, the menu): the place as it is now
    const now = (e: Event) => {
      if (timer !== null) clearTimeout(timer);
      timer = null;
      if (!restored.current) return;
      if (e.type === 'keydown' && (e as KeyboardEvent).key !== 'Enter') return;
      save();
    };
    window.addEventListener('scroll', later, { passive: true });
    document.addEventListener('pointerdown', now, true);
    document.addEventListener('keydown', now, true);
    return () => {
      window.removeEventListener('scroll', later);
      document.removeEventListener('pointerdown', now, true);
      document.removeEventListener('keydown', now, true);
      // a save still waiting would read the next screen's scroll: the last one stands
      if (timer !== null) clearTimeout(timer);
    };
  }, [save]);

  return save;
}
