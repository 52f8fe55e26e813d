import { describe, expect, it } from 'vitest';
import { inviteSubtitle } from '../../../web/src/features/auth/components/InvitePage';

describe('the invitation page', () => {
  it('names the company the invitation is to, and the role it gives', () => {
    expect(inviteSubtitle({ company_name: 'Acme UAB', role: 'basic' })).toBe('You have been invited to Acme UAB as a Basic user. Set a password to create your account.');
    expect(inviteSubtitle({ company_name: 'Acme UAB', role: 'admin' })).toBe('You have been invited to Acme UAB as an Administrator. Set a password to create your account.');
  });
});
