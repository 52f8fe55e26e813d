import { STORAGE_KEYS } from '../../../shared/constants';

export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export interface ActiveCompanyState {
  companyId: string | null;
  /** The user's choice of the all-companies view; only effective with more than one company. */
  allCompanies: boolean;
}

export interface ActiveCompanyStore {
  getState(): ActiveCompanyState;
  subscribe(listener: () => void): () => void;
  setCompany(companyId: string): void;
  setAllCompanies(on: boolean): void;
  /** Make the stored choice valid for the companies the user has now (first company when the stored one is gone). */
  reconcile(companyIds: ReadonlyArray<string>): void;
  /**
   * The signed-in user: the choices are theirs from now on. Those another user made on this browser (signed out, or
   * signed in over in another tab) are dropped: no company of theirs and no all-companies view carry over.
   */
  claim(userId: string): void;
}

function safeGet(storage: KeyValueStorage | undefined, key: string): string | null {
  try {
    return storage?.getItem(key) ?? null;
  } catch {
    return null;
  }
}
function safeSet(storage: KeyValueStorage | undefined, key: string, value: string | null): void {
  try {
    if (value === null) storage?.removeItem(key);
    else storage?.setItem(key, value);
  } catch {
    // storage full or disabled: the choice lives for this visit only
  }
}

export function parseStoredCompanyId(raw: string | null): string | null {
  if (raw === null || raw === '' || raw === 'null' || raw === 'undefined') return null;
  // tolerate a JSON-encoded string
  if (raw.startsWith('"') && raw.endsWith('"')) {
    try {
      const v = JSON.parse(raw) as unknown;
      return typeof v === 'string' && v ? v : null;
    } catch {
      return null;
    }
  }
  return raw;
}

export function parseStoredFlag(raw: string | null): boolean {
  return raw === 'true' || raw === '1';
}

export function effectiveAllCompanies(state: ActiveCompanyState, companyCount: number): boolean {
  return state.allCompanies && companyCount > 1;
}

export function createActiveCompanyStore(storage?: KeyValueStorage): ActiveCompanyStore {
  const stored = (): ActiveCompanyState => ({
    companyId: parseStoredCompanyId(safeGet(storage, STORAGE_KEYS.activeCompany)),
    allCompanies: parseStoredFlag(safeGet(storage, STORAGE_KEYS.allCompanies)),
  });
  let state: ActiveCompanyState = stored();
  const listeners = new Set<() => void>();
  /** The user whose choices the state holds, once one has claimed them in this tab. */
  let claimedBy: string | null = null;

  function update(next: ActiveCompanyState): void {
    if (next.companyId === state.companyId && next.allCompanies === state.allCompanies) return;
    if (next.companyId !== state.companyId) safeSet(storage, STORAGE_KEYS.activeCompany, next.companyId);
    if (next.allCompanies !== state.allCompanies) safeSet(storage, STORAGE_KEYS.allCompanies, String(next.allCompanies));
    state = next;
    for (const l of [...listeners]) l();
  }

  return {
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    setCompany(companyId) {
      update({ ...state, companyId });
    },
    setAllCompanies(on) {
      update({ ...state, allCompanies: on });
    },
    claim(userId) {
      // choices stored before their user was kept (none stored) are taken as this user's
      const owner = safeGet(storage, STORAGE_KEYS.activeCompanyUser);
      if (owner !== null && owner !== userId) {
        update({ companyId: null, allCompanies: false });
      } else if (claimedBy !== null && claimedBy !== userId) {
        // this tab held another user's choices; the storage holds this user's (signed in in another tab)
        const now = stored();
        if (now.companyId !== state.companyId || now.allCompanies !== state.allCompanies) {
          state = now;
          for (const l of [...listeners]) l();
        }
      }
      claimedBy = userId;
      if (owner !== userId) safeSet(storage, STORAGE_KEYS.activeCompanyUser, userId);
    },
    reconcile(companyIds) {
      if (companyIds.length === 0) {
        update({ ...state, companyId: null });
        return;
      }
      if (state.companyId === null || !companyIds.includes(state.companyId)) {
        update({ ...state, companyId: companyIds[0] ?? null });
      }
    },
  };
}
