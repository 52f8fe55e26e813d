import { describe, expect, it } from 'vitest';
import { activeCompanyGoneNotice, recordCompanyDeleted } from '../../../web/src/features/companies/lib/company-gone';

const x = { company_id: 'X', name: 'Alpha UAB' };
const y = { company_id: 'Y', name: 'Beta UAB' };
const z = { company_id: 'Z', name: 'Gama UAB' };

describe('the active company gone from the list', () => {
  it('names the company gone and the one shown instead', () => {
    expect(activeCompanyGoneNotice([x, y], [y], 'X', false)).toBe('You no longer have access to Alpha UAB. Showing Beta UAB.');
  });

  it('names only the company gone when none is left, or in the all-companies view', () => {
    expect(activeCompanyGoneNotice([x], [], 'X', false)).toBe('You no longer have access to Alpha UAB.');
    expect(activeCompanyGoneNotice([x, y, z], [y, z], 'X', true)).toBe('You no longer have access to Alpha UAB.');
  });

  it('says the company was deleted when a company-delete event named it, rather than that access was taken away', () => {
    const deleted = new Set(['X']);
    expect(activeCompanyGoneNotice([x, y], [y], 'X', false, deleted)).toBe('Alpha UAB was deleted. Showing Beta UAB.');
    expect(activeCompanyGoneNotice([x], [], 'X', false, deleted)).toBe('Alpha UAB was deleted.');
    expect(activeCompanyGoneNotice([x, y], [y], 'X', false, new Set(['Z']))).toBe('You no longer have access to Alpha UAB. Showing Beta UAB.');
  });

  it('records the deleted companies this tab heard of', () => {
    recordCompanyDeleted('Y');
    expect(activeCompanyGoneNotice([x, y], [x], 'Y', false)).toBe('Beta UAB was deleted. Showing Alpha UAB.');
  });

  it('says nothing while the active company is there, for another company gone, at the first read, or for a company not known', () => {
    expect(activeCompanyGoneNotice([x, y], [x, y], 'X', false)).toBeNull();
    expect(activeCompanyGoneNotice([x, y], [x], 'X', false)).toBeNull();
    expect(activeCompanyGoneNotice(null, [y], 'X', false)).toBeNull();
    expect(activeCompanyGoneNotice([y], [y], 'X', false)).toBeNull();
    expect(activeCompanyGoneNotice([x, y], [y], null, false)).toBeNull();
  });
});
