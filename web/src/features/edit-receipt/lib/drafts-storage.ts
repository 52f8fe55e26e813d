/**
 * The edit screen's unsaved values, kept in the tab's sessionStorage so that a reload, a closed-and-restored tab
 * or a sign-in after an expired session finds them again. One entry per user (Cognito sub), company and document:
 * another user signing in on this tab never sees them. The entry is written DRAFTS_STORE_MS after the user stops
 * typing, and at once whenever the page may go (pagehide, beforeunload, a move to another document or screen, the
 * screen's unmount: EditReceiptPage.tsx), and removed once everything typed is saved.
 */
export const DRAFTS_PREFIX = 'receipts.edit-drafts.v1';

/** How long after the last change the drafts are written to the tab's storage (not on every key typed). */
export const DRAFTS_STORE_MS = 400;

export interface DraftOwner {
  /** The signed-in user's sub. */
  userId: string;
  companyId: string;
  receiptId: string;
}

export interface StoredDrafts {
  /** Field id → the value typed. */
  values: Record<string, string>;
  /** Field id → the server's value when the user started typing in it (what a conflicting save compares with). */
  base: Record<string, string>;
  /** The content version the values were typed on: a save sends it, so a document changed since answers 409. */
  version: number;
  /** When the entry was written (ms since epoch). */
  at: number;
}

type Store = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

export function draftsKey(owner: DraftOwner): string {
  return [DRAFTS_PREFIX, owner.userId, owner.companyId, owner.receiptId].map(encodeURIComponent).join(':');
}

function session(): Store | null {
  try {
    return typeof window !== 'undefined' ? window.sessionStorage : null;
  } catch {
    return null; // storage blocked (privacy settings): the drafts live only on the screen
  }
}

const isStrings = (v: unknown): v is Record<string, string> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && Object.values(v).every((x) => typeof x === 'string');

/** The stored drafts of this document for this user, or null (none, unreadable, or empty). */
export function loadDrafts(owner: DraftOwner, store: Store | null = session()): StoredDrafts | null {
  if (!store || !owner.userId) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(store.getItem(draftsKey(owner)) ?? 'null');
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null) return null;
  const { values, base, version, at } = parsed as Partial<StoredDrafts>;
  if (!isStrings(values) || !Object.keys(values).length || typeof version !== 'number') return null;
  return { values, base: isStrings(base) ? base : {}, version, at: typeof at === 'number' ? at : 0 };
}

/** Keeps the drafts (or removes the entry when there are none left). Never throws: a full storage keeps nothing. */
export function storeDrafts(owner: DraftOwner, drafts: Omit<StoredDrafts, 'at'> & { at?: number }, store: Store | null = session()): void {
  if (!store || !owner.userId) return;
  try {
    if (!Object.keys(drafts.values).length) {
      store.removeItem(draftsKey(owner));
      return;
    }
    const base = Object.fromEntries(Object.entries(drafts.base).filter(([id]) => id in drafts.values));
    store.setItem(draftsKey(owner), JSON.stringify({ values: drafts.values, base, version: drafts.version, at: drafts.at ?? Date.now() }));
  } catch {
    // quota or blocked storage: nothing to do
  }
}

export function clearDrafts(owner: DraftOwner, store: Store | null = session()): void {
  if (!store || !owner.userId) return;
  try {
    store.removeItem(draftsKey(owner));
  } catch {
    // blocked storage
  }
}

/**
 * The drafts to put back on the screen when the document opens: those of fields the document still has whose value
 * differs from the server's now (a value saved meanwhile is no draft). null when nothing is left.
 */
export function draftsToRestore(stored: StoredDrafts | null, serverValue: (id: string) => string | undefined): StoredDrafts | null {
  if (!stored) return null;
  const values: Record<string, string> = {};
  for (const [id, v] of Object.entries(stored.values)) {
    const now = serverValue(id);
    if (now !== undefined && now !== v) values[id] = v;
  }
  if (!Object.keys(values).length) return null;
  const base = Object.fromEntries(Object.keys(values).map((id) => [id, stored.base[id] ?? serverValue(id) ?? '']));
  return { ...stored, values, base };
}

/** How long the autosave waits before trying a failed save again: 2 s, doubling, at most 30 s. */
export function retryDelay(failures: number, first = 2000, max = 30_000): number {
  return Math.min(max, first * 2 ** Math.max(0, failures - 1));
}
