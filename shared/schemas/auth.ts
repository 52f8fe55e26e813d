import { z } from 'zod';
import { COMPANY_CODE_MAX, COMPANY_NAME_MAX, CONFIRMATION_CODE_MIN, NAME_MIN, PASSWORD_MIN, PERSON_NAME_MAX } from '../constants';
import { MSG } from './messages';
import { singleLine } from './text';

const PASSWORD_CHARS = /^(?=.*[a-z])(?=.*[A-Z])(?=.*\d).*$/;

export const requiredString = () => z.string({ error: MSG.required }).trim().min(1, MSG.required);
export const emailField = () => requiredString().pipe(z.email({ error: MSG.invalidEmail }));
/** A user's name or surname: required, at least 2 characters (rules.md 5, 'At least 2 characters'), one line. */
export const personNameField = () =>
  requiredString().pipe(z.string().min(NAME_MIN, MSG.nameMin).max(PERSON_NAME_MAX, `At most ${PERSON_NAME_MAX} characters`)).check(singleLine());

export const passwordField = (tooShort: string = MSG.passwordMin) =>
  z
    .string({ error: MSG.required })
    .min(1, MSG.required)
    .min(PASSWORD_MIN, tooShort)
    .regex(PASSWORD_CHARS, MSG.passwordChars);

/** Sign-in checks the password by the same rules as a new one (rules.md section 5), before the identity provider. */
export const signInSchema = z.object({
  email: emailField(),
  password: passwordField(),
});

export const signUpSchema = z
  .object({
    name: personNameField(),
    surname: personNameField(),
    // rules.md 9: company name and code 80
    company: requiredString().pipe(z.string().max(COMPANY_NAME_MAX, `At most ${COMPANY_NAME_MAX} characters`)).check(singleLine()),
    company_code: requiredString().pipe(z.string().max(COMPANY_CODE_MAX, `At most ${COMPANY_CODE_MAX} characters`)).check(singleLine()),
    email: emailField(),
    password: passwordField(MSG.signUpPasswordMin),
    passwordRepeat: z.string({ error: MSG.required }).min(1, MSG.required),
    acceptTerms: z.boolean().refine((v) => v === true, MSG.acceptTerms),
  })
  .refine((v) => v.password === v.passwordRepeat, { path: ['passwordRepeat'], message: MSG.passwordsSame });

export const confirmSignUpSchema = z.object({
  email: emailField(),
  code: requiredString().pipe(z.string().min(CONFIRMATION_CODE_MIN, MSG.codeMin)),
});

export const forgotPasswordEmailSchema = z.object({ email: emailField() });

export const resetPasswordSchema = z
  .object({
    code: requiredString().pipe(z.string().min(CONFIRMATION_CODE_MIN, MSG.codeMin)),
    new_password: passwordField(),
    new_password_repeat: z.string({ error: MSG.required }).min(1, MSG.required),
  })
  .refine((v) => v.new_password === v.new_password_repeat, {
    path: ['new_password_repeat'],
    message: MSG.passwordsSame,
  });

export const changePasswordSchema = z
  .object({
    current_password: z.string({ error: MSG.required }).min(1, MSG.required),
    new_password: passwordField(),
    repeat_password: z.string({ error: MSG.required }).min(1, MSG.required),
  })
  .refine((v) => v.new_password === v.repeat_password, { path: ['repeat_password'], message: MSG.passwordsSame });

export const invitePasswordSchema = z
  .object({
    // the invitation's password makes an account, as /signup's does: its message (rules.md 5)
    password: passwordField(MSG.signUpPasswordMin),
    passwordRepeat: z.string({ error: MSG.required }).min(1, MSG.required),
    acceptTerms: z.boolean().refine((v) => v === true, MSG.acceptTerms),
  })
  .refine((v) => v.password === v.passwordRepeat, { path: ['passwordRepeat'], message: MSG.passwordsSame });

export type SignUpInput = z.infer<typeof signUpSchema>;
export type SignInInput = z.infer<typeof signInSchema>;

/** Cognito custom attributes carried from registration to the post-confirmation trigger. */
/**
 * The sign-up's validation data (read by the pre-sign-up trigger, never stored) that carries the invitation link's
 * token: with it an invited sign-up is confirmed without a mailed code.
 */
export const INVITATION_TOKEN_VALIDATION_KEY = 'invitation_token';

export const COGNITO_ATTRIBUTES = {
  name: 'custom:name',
  surname: 'custom:surname',
  company: 'custom:company',
  companyCode: 'custom:company_code',
  invitationId: 'custom:invitation_id',
} as const;
