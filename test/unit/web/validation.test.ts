import { describe, expect, it } from 'vitest';
import { changePasswordSchema, invitePasswordSchema, signInSchema, signUpSchema } from '../../../shared/schemas/auth';
import { createCompanySchema } from '../../../shared/schemas/company';
import { updateProfileSchema } from '../../../shared/schemas/user';
import { changedFields, withMatch, zodValidator } from '../../../web/src/lib/validation';
import { formatDate, fullName } from '../../../web/src/lib/format';
import { companyRoleLabel } from '../../../web/src/lib/roles';

describe('zodValidator', () => {
  it('returns the first message per field with the spec texts', () => {
    const r = zodValidator(signInSchema)({ email: 'nope', password: '' });
    expect(r.ok).toBe(false);
    expect(r.errors).toEqual({ email: 'Invalid email', password: 'Required field' });
  });

  it('returns the parsed data when valid', () => {
    const r = zodValidator(signInSchema)({ email: ' a@b.lt ', password: 'Demo12345' });
    expect(r).toEqual({ ok: true, data: { email: 'a@b.lt', password: 'Demo12345' }, errors: {} });
  });

  it('checks a sign-in password by the rules of a new one: 8 characters, a lowercase, an uppercase and a digit', () => {
    expect(zodValidator(signInSchema)({ email: 'a@b.lt', password: 'Ab1' }).errors).toEqual({ password: 'Password must be at least 8 characters' });
    expect(zodValidator(signInSchema)({ email: 'a@b.lt', password: 'demo12345' }).errors).toEqual({ password: 'At least one uppercase, one lowercase, one number' });
  });

  it("an invitation's password makes an account: a short one gets /signup's message", () => {
    const short = { password: 'Ab1', passwordRepeat: 'Ab1', acceptTerms: true };
    expect(zodValidator(invitePasswordSchema)(short).errors).toEqual({ password: 'Password is too short - should be at least 8 chars' });
    expect(zodValidator(signUpSchema)({ name: 'Ana', surname: 'Lee', company: 'A', company_code: '1', email: 'a@b.lt', ...short }).errors.password).toBe(
      'Password is too short - should be at least 8 chars',
    );
  });

  it('add company: both fields required', () => {
    expect(zodValidator(createCompanySchema)({ company_name: '', code: '' }).errors).toEqual({
      company_name: 'Required field',
      code: 'Required field',
    });
  });
});

describe('withMatch', () => {
  const base = {
    name: '',
    surname: '',
    company: '',
    company_code: '',
    email: '',
    password: 'abc',
    passwordRepeat: 'abd',
    acceptTerms: false,
  };
  type V = typeof base;

  it('reports a password mismatch while other fields are still invalid', () => {
    const validate = withMatch<V, unknown>(zodValidator(signUpSchema), 'passwordRepeat', 'password', 'Both passwords need to be the same');
    const r = validate(base);
    expect(r.errors.passwordRepeat).toBe('Both passwords need to be the same');
    expect(r.errors.password).toBe('Password is too short - should be at least 8 chars');
    expect(r.errors.acceptTerms).toBe('Accepting the rules is required');
  });

  it('stays quiet when the repeat field is empty or equal', () => {
    const validate = withMatch<V, unknown>(zodValidator(signUpSchema), 'passwordRepeat', 'password', 'x');
    expect(validate({ ...base, passwordRepeat: '' }).errors.passwordRepeat).toBe('Required field');
    expect(validate({ ...base, passwordRepeat: 'abc' }).errors.passwordRepeat).toBeUndefined();
  });

  it('bounds names at 80 characters and the company name and code at 80 (rules.md 9)', () => {
    const r = zodValidator(signUpSchema)({ ...base, name: 'N'.repeat(81), surname: 'Ok', company: 'C'.repeat(81), company_code: '1'.repeat(81) });
    expect(r.errors.name).toBe('At most 80 characters');
    expect(r.errors.surname).toBeUndefined();
    expect(r.errors.company).toBe('At most 80 characters');
    expect(r.errors.company_code).toBe('At most 80 characters');
    expect(updateProfileSchema.safeParse({ surname: 'S'.repeat(81) }).error?.issues[0]?.message).toBe('At most 80 characters');
    expect(updateProfileSchema.safeParse({ surname: 'S'.repeat(80) }).success).toBe(true);
  });

  it("says how long My Profile's other fields may be, in the product's words", () => {
    const message = (input: Record<string, string>) => updateProfileSchema.safeParse(input).error?.issues[0]?.message;
    expect(message({ phone: '1'.repeat(41) })).toBe('At most 40 characters');
    expect(message({ address: 'a'.repeat(201) })).toBe('At most 200 characters');
    expect(message({ city: 'c'.repeat(101) })).toBe('At most 100 characters');
    expect(message({ country: 'c'.repeat(101) })).toBe('At most 100 characters');
    expect(message({ post_code: '1'.repeat(21) })).toBe('At most 20 characters');
    expect(updateProfileSchema.safeParse({ phone: '1'.repeat(40), post_code: '1'.repeat(20) }).success).toBe(true);
  });

  it("says 'Required field' for a cleared name or surname on My Profile, as sign-up and the invite form do (rules.md 4)", () => {
    expect(updateProfileSchema.safeParse({ name: '' }).error?.issues[0]?.message).toBe('Required field');
    expect(updateProfileSchema.safeParse({ surname: '   ' }).error?.issues[0]?.message).toBe('Required field');
    expect(updateProfileSchema.safeParse({ name: 'J' }).error?.issues[0]?.message).toBe('At least 2 characters');
    expect(updateProfileSchema.safeParse({ city: '' }).success).toBe(true);
  });

  it('a user name and surname need 2 characters on sign-up, as on My Profile (rules.md 5)', () => {
    const r = zodValidator(signUpSchema)({ ...base, name: 'J', surname: ' Ž ', company: 'Q', company_code: '1' });
    expect(r.errors.name).toBe('At least 2 characters');
    expect(r.errors.surname).toBe('At least 2 characters');
    // the company's name and code are not name fields of the rule
    expect(r.errors.company).toBeUndefined();
    expect(r.errors.company_code).toBeUndefined();
    const ok = zodValidator(signUpSchema)({ ...base, name: 'Jo', surname: 'Žu' });
    expect(ok.errors.name).toBeUndefined();
    expect(ok.errors.surname).toBeUndefined();
  });

  it('change password schema reports the mismatch too once valid', () => {
    const r = zodValidator(changePasswordSchema)({ current_password: 'a', new_password: 'Secret123', repeat_password: 'Secret124' });
    expect(r.errors).toEqual({ repeat_password: 'Both passwords need to be the same' });
  });
});

describe('changedFields (profile: only changed fields are sent)', () => {
  it('returns only the fields that differ, ignoring surrounding spaces', () => {
    const initial = { name: 'Jonas', surname: 'J', phone: '', city: 'Vilnius' };
    expect(changedFields(initial, { ...initial, phone: '+370', city: 'Vilnius ' })).toEqual({ phone: '+370' });
    expect(changedFields(initial, initial)).toEqual({});
  });

  it('the changes pass the strict update schema', () => {
    const r = updateProfileSchema.safeParse(changedFields({ name: 'Jonas', phone: '' }, { name: 'J', phone: '1' }));
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.message).toBe('At least 2 characters');
  });
});

describe('display helpers', () => {
  it("formats dates as 'DD MMM YY'", () => {
    expect(formatDate('2024-03-05T12:00:00')).toBe('05 Mar 24');
    expect(formatDate('not a date')).toBe('');
    expect(formatDate(null)).toBe('');
  });

  it('joins the full name', () => {
    expect(fullName({ name: 'Jonas', surname: 'Jonaitis' })).toBe('Jonas Jonaitis');
    expect(fullName({ name: 'Jonas', surname: '' })).toBe('Jonas');
    expect(fullName(undefined)).toBe('');
  });

  it('labels roles: Account owner, Administrator, Basic user', () => {
    const owner = { email: 'me@x.lt', name: 'A', surname: 'B' };
    expect(companyRoleLabel({ role: 'admin', user: owner }, 'ME@x.lt')).toBe('Account owner');
    expect(companyRoleLabel({ role: 'admin', user: owner }, 'other@x.lt')).toBe('Administrator');
    expect(companyRoleLabel({ role: 'basic', user: owner }, 'me@x.lt')).toBe('Basic user');
    // the user's own e-mail not known yet (the profile loading): neither label, rather than "Administrator" first
    expect(companyRoleLabel({ role: 'admin', user: owner }, undefined)).toBeNull();
    expect(companyRoleLabel({ role: 'basic', user: owner }, undefined)).toBe('Basic user');
  });
});
