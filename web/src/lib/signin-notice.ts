/**
 * A message for the next sign-in screen (My Profile's Delete account: "Your account was deleted."), held in memory
 * while the session ends and the app goes to /signin — whichever of the sign-out's redirect and the caller's own
 * navigation comes first. Never persisted: a reload drops it. The sign-in screen reads it when it opens and clears it.
 */
let notice: string | null = null;

export function holdSignInNotice(text: string): void {
  notice = text;
}

export function peekSignInNotice(): string | null {
  return notice;
}

export function clearSignInNotice(): void {
  notice = null;
}
