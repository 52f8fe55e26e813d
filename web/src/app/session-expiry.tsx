import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';

interface SessionExpiryValue {
  expired: boolean;
  markExpired(): void;
  clear(): void;
}

const SessionExpiryContext = createContext<SessionExpiryValue | null>(null);

export function useSessionExpiry(): SessionExpiryValue {
  const ctx = useContext(SessionExpiryContext);
  if (!ctx) throw new Error('useSessionExpiry outside SessionExpiryProvider');
  return ctx;
}

/** Holds the "session expired" flag raised by a 401 answer or a failed token refresh. */
export function SessionExpiryProvider({ children }: { children: ReactNode }) {
  const [expired, setExpired] = useState(false);
  const markExpired = useCallback(() => setExpired(true), []);
  const clear = useCallback(() => setExpired(false), []);
  const value = useMemo(() => ({ expired, markExpired, clear }), [expired, markExpired, clear]);
  return <SessionExpiryContext.Provider value={value}>{children}</SessionExpiryContext.Provider>;
}
