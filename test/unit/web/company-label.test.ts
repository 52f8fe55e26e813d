import { describe, expect, it } from 'vitest';
import { companyChoiceLabel } from '../../../web/src/features/companies/lib/company-label';

describe('a company named in a list to choose from', () => {
  const companies = [
    { company_id: 'a', name: 'QA Trading', code: 'QAT001' },
    { company_id: 'b', name: 'qa trading ', code: 'QAT002' },
    { company_id: 'c', name: 'QA Second', code: 'QAS001' },
  ];

  it('adds the code only where another company of the list has the same name', () => {
    expect(companies.map((c) => companyChoiceLabel(c, companies))).toEqual(['QA Trading (QAT001)', 'qa trading (QAT002)', 'QA Second']);
    expect(companyChoiceLabel(companies[0]!, [companies[0]!, companies[2]!])).toBe('QA Trading');
  });
});
