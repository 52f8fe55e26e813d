/**
 * The mail with a one-time code that the user pool sends: on sign-up, on "Send the code again" and for a forgotten
 * password (Cognito's verification message template serves them all). Cognito puts the code where `{####}` is.
 * The user pool (infra/stacks/auth-stack.ts) and local mode's Cognito stand-in (scripts/local/stack.ts) both send it.
 */
export const CODE_PLACEHOLDER = '{####}';

export const CODE_MAIL = {
  subject: 'Your Receipts Capture verification code',
  body:
    `Your Receipts Capture verification code is ${CODE_PLACEHOLDER}. ` +
    'Enter it in Receipts Capture to confirm your email address or to set a new password. ' +
    'If you did not ask for a code, you can ignore this mail.',
} as const;

/** The code mail with the code in place of the placeholder, as Cognito sends it. */
export function codeMail(code: string): { subject: string; text: string } {
  return { subject: CODE_MAIL.subject, text: CODE_MAIL.body.replace(CODE_PLACEHOLDER, code) };
}
