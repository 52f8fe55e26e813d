import { createContext, useContext, useLayoutEffect, useState, useSyncExternalStore, type ReactNode } from 'react';
import { useAuth } from './auth';
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
  // the choices are the signed-in user's: another user's (on this browser before) do not carry over
  const userId = useAuth().user?.userId;
  useLayoutEffect(() => {
    if (userId) value.claim(userId);
  }, [value, userId]);
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
