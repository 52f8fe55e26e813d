import { describe, expect, it } from 'vitest';
import { MSG } from '../../../shared/schemas/messages';
import { ApiError } from '../../../web/src/lib/api-error';
import { FORM_FIELDS, formFields, routeServerError } from '../../../web/src/features/master-data/lib/forms';

const invalid = (path: Array<string | number>, message: string) =>
  new ApiError(422, 'ValidationFailed', 'Invalid input', [{ path, message, code: 'invalid_type' }]);

/** A failed master-data write: each message under the field that shows it, the rest in the info pop-up. */
describe('where a server error of a master-data form is shown', () => {
  it('shows an error on company_id in the pop-up when the one-company add form has no company field', () => {
    const err = invalid(['company_id'], 'Invalid input: expected string, received undefined');
    const route = routeServerError('customer', err, formFields(FORM_FIELDS.stakeholderAdd, false));
    expect(route.fields).toEqual({});
    expect(route.popup).toBe('Company: Invalid input: expected string, received undefined');
    // the all-companies form shows the company field: the message goes under it
    expect(routeServerError('customer', err, formFields(FORM_FIELDS.stakeholderAdd, true))).toEqual({
      fields: { company_id: 'Invalid input: expected string, received undefined' },
      popup: null,
    });
  });

  it('puts the messages of shown fields under them and the others in the pop-up, together', () => {
    const err = new ApiError(422, 'ValidationFailed', 'Invalid input', [
      { path: ['name'], message: 'This customer already exists' },
      { path: ['email'], message: 'Invalid email' },
    ]);
    expect(routeServerError('customer', err, formFields(FORM_FIELDS.stakeholderAdd, false))).toEqual({
      fields: { name: 'This customer already exists' },
      popup: 'email: Invalid email',
    });
  });

  it('keeps the category code and the item word rows under their fields', () => {
    const dup = new ApiError(422, 'ValidationFailed', 'Invalid input', [{ path: ['code'], message: 'This category already exists' }]);
    expect(routeServerError('category', dup, formFields(FORM_FIELDS.category, false))).toEqual({ fields: { category_code: 'This category already exists' }, popup: null });
    const word = invalid(['words', 2], 'At most 80 characters');
    expect(routeServerError('item', word, formFields(FORM_FIELDS.item, false))).toEqual({ fields: { 'words.2': 'At most 80 characters' }, popup: null });
  });

  it('shows an error without field details, or any other failure, in the pop-up', () => {
    expect(routeServerError('supplier', new ApiError(403, 'Forbidden', 'You have no access to this company'), FORM_FIELDS.stakeholderEdit)).toEqual({
      fields: {},
      popup: 'You have no access to this company',
    });
    expect(routeServerError('supplier', 'boom', FORM_FIELDS.stakeholderEdit)).toEqual({ fields: {}, popup: MSG.somethingWrong });
  });
});

describe('the edit category pop-up', () => {
  it('says Something went wrong under the name for a failure without field details (rules.md 8)', () => {
    const route = routeServerError('category', new ApiError(500, 'Error', 'Something broke'), FORM_FIELDS.category, { name: MSG.somethingWrong });
    expect(route).toEqual({ fields: { name: MSG.somethingWrong }, popup: null });
  });
});
