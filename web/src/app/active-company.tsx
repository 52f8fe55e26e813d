import { createContext, useContext, useState, useSyncExternalStore, type ReactNode } from 'react';
import {
  createActiveCompanyStore,
  type ActiveCompanyState,
  type ActiveCompanyStore,
  type KeyValueStorage,
} from '../lib/active-company-store';

const ActiveCompanyContext = createContext<ActiveCompanyStore | null>(null);

function browserStorage(): KeyValueStorage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}

/** The active company and the all-companies flag, persisted in localStorage (active_company, active_all_companies). */
export function ActiveCompanyProvider({ children, store }: { children: ReactNode; store?: ActiveCompanyStore }) {
  const [value] = useState(() => store ?? createActiveCompanyStore(browserStorage()));
  return <ActiveCompanyContext.Provider value={value}>{children}</ActiveCompanyContext.Provider>;
}

export function useActiveCompanyStore(): ActiveCompanyStore {
  const store = useContext(ActiveCompanyContext);
  if (!store) throw new Error('useActiveCompanyStore outside ActiveCompanyProvider');
  return store;
}

export function useActiveCompanyState(): ActiveCompanyState {
  const store = useActiveCompanyStore();
  return useSyncExternalStore(store.subscribe, store.getState, store.getState);
}
