import { describe, expect, it } from 'vitest';
import { ACCOUNT_MSG, ownsSharedCompaniesMessage } from '../../../shared/schemas/user';
import { createApiClient } from '../../../web/src/lib/api-client';
import { ApiError, networkError, NETWORK_ERROR_MESSAGE, parseApiError } from '../../../web/src/lib/api-error';
import { clearSignInNotice, holdSignInNotice, peekSignInNotice } from '../../../web/src/lib/signin-notice';
import { deleteOwnAccount } from '../../../web/src/features/profile/api/profile';
import { confirmsAccountEmail, deleteAccountFailure, deleteAccountValidator } from '../../../web/src/features/profile/lib/delete-account';

const EMAIL = 'Owner.Person@Example.com';

describe('Delete account: the typed address confirms', () => {
  it('matches the account email trimmed and whatever the case', () => {
    expect(confirmsAccountEmail(EMAIL, EMAIL)).toBe(true);
    expect(confirmsAccountEmail('  owner.person@example.COM ', EMAIL)).toBe(true);
    expect(confirmsAccountEmail('owner.person@example.co', EMAIL)).toBe(false);
    expect(confirmsAccountEmail('', EMAIL)).toBe(false);
    expect(confirmsAccountEmail('   ', '')).toBe(false);
  });

  it('validates with deleteAccountSchema and asks for the account address otherwise', () => {
    const validate = deleteAccountValidator(EMAIL);
    expect(validate({ email: '' })).toEqual({ ok: false, errors: { email: ACCOUNT_MSG.confirmEmail } });
    expect(validate({ email: 'someone@example.com' })).toEqual({ ok: false, errors: { email: ACCOUNT_MSG.confirmEmail } });
    expect(validate({ email: `${'a'.repeat(320)}@example.com` })).toEqual({ ok: false, errors: { email: ACCOUNT_MSG.confirmEmail } });
    // the schema trims: what is sent is the address without the spaces typed around it
    expect(validate({ email: ' OWNER.person@example.com ' })).toEqual({ ok: true, data: { email: 'OWNER.person@example.com' }, errors: {} });
  });
});

describe('Delete account: where a refusal is told', () => {
  const body422 = (details: unknown) => ({ statusCode: 422, error: 'ValidationFailed', message: ACCOUNT_MSG.confirmEmail, details });

  it('puts a 422 about the email under the field', () => {
    const wrong = parseApiError(422, body422([{ path: ['email'], message: ACCOUNT_MSG.confirmEmail }]), 'DELETE');
    expect(deleteAccountFailure(wrong)).toEqual({ field: ACCOUNT_MSG.confirmEmail });
    const long = parseApiError(422, body422([{ path: ['email'], message: 'At most 320 characters' }]), 'DELETE');
    expect(deleteAccountFailure(long)).toEqual({ field: 'At most 320 characters' });
  });

  it("says the API's message in the pop-up for a 409 and anything else", () => {
    const message = `${ownsSharedCompaniesMessage(['Acme'])} You have 2 documents without a company. Assign them to a company or delete them first.`;
    expect(deleteAccountFailure(parseApiError(409, { statusCode: 409, error: 'Conflict', message }, 'DELETE'))).toEqual({ alert: message });
    expect(deleteAccountFailure(parseApiError(409, { statusCode: 409, error: 'Conflict', message: ACCOUNT_MSG.uploadInProgress }, 'DELETE'))).toEqual({
      alert: ACCOUNT_MSG.uploadInProgress,
    });
    // a 422 about no field the pop-up shows, a lost connection, a server failure
    const invalid = { statusCode: 422, error: 'ValidationFailed', message: 'Invalid input', details: [{ path: [], message: 'Unrecognized key' }] };
    expect(deleteAccountFailure(parseApiError(422, invalid, 'DELETE'))).toEqual({ alert: 'Invalid input' });
    expect(deleteAccountFailure(networkError())).toEqual({ alert: NETWORK_ERROR_MESSAGE });
    expect(deleteAccountFailure(new ApiError(500, 'InternalError', 'Something went wrong'))).toEqual({ alert: 'Something went wrong' });
  });
});

describe('deleteOwnAccount', () => {
  it('sends DELETE /user with the typed address as JSON, not scoped to the active company', async () => {
    const calls: Array<{ url: string; init: RequestInit }> = [];
    const api = createApiClient({
      apiUrl: 'https://api.test',
      getAccessToken: async () => 'token-1',
      getCompanyId: () => 'c1',
      onUnauthorized: () => undefined,
      fetch: async (input, init) => {
        calls.push({ url: String(input), init: init ?? {} });
        return new Response(JSON.stringify({ deleted: true, companies_deleted: ['c1'], companies_left: [] }), { status: 200 });
      },
    });
    await expect(deleteOwnAccount(api, 'me@example.com')).resolves.toEqual({ deleted: true, companies_deleted: ['c1'], companies_left: [] });
    expect(calls).toHaveLength(1);
    expect(calls[0]!.url).toBe('https://api.test/user');
    expect(calls[0]!.init.method).toBe('DELETE');
    expect(JSON.parse(String(calls[0]!.init.body))).toEqual({ email: 'me@example.com' });
    expect((calls[0]!.init.headers as Record<string, string>)['Content-Type']).toBe('application/json');
    expect((calls[0]!.init.headers as Record<string, string>).Authorization).toBe('Bearer token-1');
  });
});

describe('the sign-in screen notice', () => {
  it('is held until the screen clears it', () => {
    expect(peekSignInNotice()).toBeNull();
    holdSignInNotice(ACCOUNT_MSG.deleted);
    expect(peekSignInNotice()).toBe('Your account was deleted.');
    expect(peekSignInNotice()).toBe('Your account was deleted.');
    clearSignInNotice();
    expect(peekSignInNotice()).toBeNull();
  });
});
