import { describe, expect, it } from 'vitest';
import type { Company } from '../../../shared/schemas/company';
import { hasNoCompany } from '../../../web/src/features/receipts/api/receipts';

const company = { company_id: 'c1', name: 'Acme' } as Company;

describe('a user with no company', () => {
  it('is known once the companies have loaded and none is there', () => {
    expect(hasNoCompany({ isLoading: false, isError: false, allCompanies: false, active: undefined })).toBe(true);
  });

  it('is not assumed while the companies load, when they could not be read, or with a company', () => {
    expect(hasNoCompany({ isLoading: true, isError: false, allCompanies: false, active: undefined })).toBe(false);
    expect(hasNoCompany({ isLoading: false, isError: true, allCompanies: false, active: undefined })).toBe(false);
    expect(hasNoCompany({ isLoading: false, isError: false, allCompanies: false, active: company })).toBe(false);
    expect(hasNoCompany({ isLoading: false, isError: false, allCompanies: true, active: undefined })).toBe(false);
  });
});
