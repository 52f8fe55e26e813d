import { useQueryClient } from '@tanstack/react-query';
import { getCurrentUser, signOut as amplifySignOut } from 'aws-amplify/auth';
import { Hub } from 'aws-amplify/utils';
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { isSessionOver } from '../lib/auth-errors';
import { sessionChangeOf } from './auth-storage';
import { useSessionExpiry } from './session-expiry';

export type AuthStatus = 'loading' | 'signedIn' | 'signedOut';

export interface AuthUser {
  userId: string;
  username: string;
}

interface AuthContextValue {
  status: AuthStatus;
  user: AuthUser | null;
  /** Re-read the current session (after sign-in or confirmation). */
  refresh(): Promise<void>;
  /**
   * Ends the session. A user who signs out leaves their place behind: the next sign-in (maybe of someone else on
   * this browser) starts at the dashboard; `keepPath` (the session-expired pop-up's RECONNECT) comes back to it.
   */
  signOut(opts?: { keepPath?: boolean }): Promise<void>;
  /** The session was ended on purpose by signOut without keepPath (signed-in pages then keep no path to return to). */
  signedOutOnPurpose: boolean;
  /** A 401 or a missing token: raise the session-expired pop-up unless the user signed out on purpose. */
  reportSessionExpired(): void;
  /**
   * After a password change: ends every session of the user (other browsers and devices: their refresh tokens are
   * revoked, so they are signed out when their access token runs out, within the hour) and signs this tab in again
   * with the new password, without leaving the page. If the new sign-in fails, the user is signed out.
   */
  renewSession(email: string, password: string): Promise<void>;
}

const AuthContext = createContext<AuthContextValue | null>(null);

export function useAuth(): AuthContextValue {
  const ctx = useContext(AuthContext);
  if (!ctx) throw new Error('useAuth outside AuthProvider');
  return ctx;
}

export function AuthProvider({ children }: { children: ReactNode }) {
  const [status, setStatus] = useState<AuthStatus>('loading');
  const [user, setUser] = useState<AuthUser | null>(null);
  const [signedOutOnPurpose, setSignedOutOnPurpose] = useState(false);
  const queryClient = useQueryClient();
  const { markExpired, clear: clearExpired } = useSessionExpiry();
  const statusRef = useRef<AuthStatus>('loading');
  /** While renewSession runs, its own sign-out is no sign-out of the app. */
  const renewingRef = useRef(false);

  const apply = useCallback(
    (next: AuthStatus, nextUser: AuthUser | null) => {
      if (statusRef.current !== 'signedOut' && next === 'signedOut') queryClient.clear();
      if (next === 'signedIn') {
        clearExpired();
        setSignedOutOnPurpose(false);
      }
      statusRef.current = next;
      setUser(nextUser);
      setStatus(next);
    },
    [queryClient, clearExpired],
  );

  const reportSessionExpired = useCallback(() => {
    if (statusRef.current !== 'signedOut' && !renewingRef.current) markExpired();
  }, [markExpired]);

  const refresh = useCallback(async () => {
    try {
      const current = await getCurrentUser();
      apply('signedIn', { userId: current.userId, username: current.username });
    } catch {
      apply('signedOut', null);
    }
  }, [apply]);

  const signOut = useCallback(async (opts: { keepPath?: boolean } = {}) => {
    // Mark first: requests failing while signing out must not raise the session-expired pop-up.
    statusRef.current = 'signedOut';
    setSignedOutOnPurpose(!opts.keepPath);
    try {
      await amplifySignOut();
    } catch {
      // a failed global revoke still clears the local session
    }
    queryClient.clear();
    setUser(null);
    setStatus('signedOut');
  }, [queryClient]);

  const renewSession = useCallback(
    async (email: string, password: string) => {
      renewingRef.current = true;
      try {
        try {
          await amplifySignOut({ global: true });
        } catch {
          // the local tokens are cleared even when the revoke fails; the sign-in below starts a new session
        }
        // Loaded when used: the sign-in module (and its schemas) stays out of the first download.
        const { signInWithEmail } = await import('../features/auth/api/auth');
        await signInWithEmail(email, password);
      } catch {
        // signed out: refresh() below finds no session and the app goes to sign-in
      } finally {
        renewingRef.current = false;
      }
      await refresh();
    },
    [refresh],
  );

  useEffect(() => {
    void refresh();
    return Hub.listen('auth', ({ payload }) => {
      switch (payload.event) {
        case 'signedIn':
          void refresh();
          break;
        case 'signedOut':
          if (!renewingRef.current) apply('signedOut', null);
          break;
        case 'tokenRefresh_failure': {
          if (isSessionOver((payload.data as { error?: unknown } | undefined)?.error)) reportSessionExpired();
          break;
        }
        default:
          break;
      }
    });
  }, [refresh, apply, reportSessionExpired]);

  // Another tab signed out, or signed in as someone else: this tab drops what it holds of the user it showed (it
  // would otherwise go on showing their data and call the API with the other user's tokens).
  const usernameRef = useRef<string | null>(null);
  usernameRef.current = user?.username ?? null;
  useEffect(() => {
    const onStorage = (event: StorageEvent) => {
      const change = sessionChangeOf(event, usernameRef.current);
      if (change === 'none') return;
      queryClient.clear();
      if (change === 'signedOut') apply('signedOut', null);
      else void refresh();
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, [apply, refresh, queryClient]);

  const value = useMemo(
    () => ({ status, user, refresh, signOut, signedOutOnPurpose, reportSessionExpired, renewSession }),
    [status, user, refresh, signOut, signedOutOnPurpose, reportSessionExpired, renewSession],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}
