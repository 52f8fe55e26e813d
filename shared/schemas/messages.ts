/** Literal validation messages from the specification (rules.md section 5). Typos are part of it. */
export const MSG = {
  required: 'Required field',
  invalidEmail: 'Invalid email',
  passwordMin: 'Password must be at least 8 characters',
  signUpPasswordMin: 'Password is too short - should be at least 8 chars',
  passwordChars: 'At least one uppercase, one lowercase, one number',
  passwordsSame: 'Both passwords need to be the same',
  acceptTerms: 'Accepting the rules is required',
  codeMin: 'Code must be at least 4 characters',
  nameMin: 'At least 2 characters',
  emailPrefix: 'Imvalid email',
  customMessageMax: 'To much sumbols',
  notANumber: 'Not a number',
  somethingWrong: 'Something went wrong',
} as const;

/** Master data duplicates (rules.md 8: shown under the name field). */
export const DUPLICATE_MSG = {
  category: 'This category already exists',
  supplier: 'This supplier already exists',
  customer: 'This customer already exists',
} as const;

/** A text longer than a field keeps: 'At most 40 characters'. */
export const atMostCharacters = (max: number) => `At most ${max} characters`;
