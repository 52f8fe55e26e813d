/**
 * Brute-force limits of the local Cognito, after Cognito's own: after 5 consecutive failed sign-ins (or wrong
 * codes) for one user name, further attempts are refused for a lockout that starts at 1 second and doubles
 * with each further failure, up to 15 minutes. A success clears the count. Counted for unknown user names
 * too, so the answer never tells whether an account exists. Kept in memory (a restart forgets them).
 */
export const FREE_ATTEMPTS = 5;
export const MAX_LOCKOUT_MS = 15 * 60 * 1000;

export type AttemptKind = 'sign-in' | 'code';

interface Failures {
  count: number;
  lockedUntil: number;
}

export class AttemptLimiter {
  private readonly failures = new Map<string, Failures>();

  constructor(private readonly now: () => number) {}

  private key(kind: AttemptKind, username: string): string {
    return `${kind}:${username.trim().toLowerCase()}`;
  }

  /** True while the user name is locked out for this kind of attempt. */
  isLocked(kind: AttemptKind, username: string): boolean {
    const f = this.failures.get(this.key(kind, username));
    return Boolean(f && f.lockedUntil > this.now());
  }

  failed(kind: AttemptKind, username: string): void {
    const key = this.key(kind, username);
    const f = this.failures.get(key) ?? { count: 0, lockedUntil: 0 };
    f.count += 1;
    if (f.count >= FREE_ATTEMPTS) f.lockedUntil = this.now() + Math.min(MAX_LOCKOUT_MS, 1000 * 2 ** (f.count - FREE_ATTEMPTS));
    this.failures.set(key, f);
  }

  succeeded(kind: AttemptKind, username: string): void {
    this.failures.delete(this.key(kind, username));
  }
}
