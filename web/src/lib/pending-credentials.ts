/**
 * Sign-in credentials held in memory between sign-up (or a not-confirmed sign-in) and the
 * confirmation screen, so the user is signed in right after confirming. Never persisted;
 * cleared after a successful sign-in (product.md 4, Authentication flow).
 */
export interface PendingCredentials {
  email: string;
  password: string;
}

let pending: PendingCredentials | null = null;

export function holdCredentials(credentials: PendingCredentials): void {
  pending = { ...credentials };
}

export function peekCredentials(): PendingCredentials | null {
  return pending;
}

export function clearCredentials(): void {
  pending = null;
}
