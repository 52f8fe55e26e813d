import { describe, expect, it } from 'vitest';
import { editUserValidator, emailInParts } from '../../../web/src/features/team/components/EditUserModal';

describe('Edit User Details: the Email-in address at a deployed domain', () => {
  const user = { email: 'rasa.team@in.example.com', email_prefix: 'rasa.team' };

  it('edits the prefix and shows the domain the API gave', () => {
    expect(emailInParts(user)).toEqual({ prefix: 'rasa.team', domain: 'in.example.com' });
    expect(emailInParts({ email: 'acme-uab-abc123@in.receipts.local', email_prefix: '' })).toEqual({ prefix: 'acme-uab-abc123', domain: 'in.receipts.local' });
  });

  it('saves the local part only; an address typed with a domain is refused', () => {
    const initial = { name: 'Rasa', surname: 'Kolegė', role: 'basic', email_prefix: emailInParts(user).prefix };
    const validate = editUserValidator(initial);
    expect(validate({ ...initial, email_prefix: 'rasa.new' })).toEqual({ ok: true, data: { email_prefix: 'rasa.new' }, errors: {} });
    expect(validate({ ...initial, email_prefix: 'rasa.new@in.example.com' })).toMatchObject({ ok: false, errors: { email_prefix: 'Imvalid email' } });
  });
});
