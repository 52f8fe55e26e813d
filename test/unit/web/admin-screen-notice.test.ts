/** What a user is told when a company administrators' screen sends them to the dashboard. */
import { describe, expect, it } from 'vitest';
import { adminScreenNotice } from '../../../web/src/lib/roles';

describe('a screen for company administrators, left for the dashboard', () => {
  const basic = { role: 'basic' as const };
  const admin = { role: 'admin' as const };

  it('tells a basic user only an administrator can open it', () => {
    expect(adminScreenNotice('Integration', { companies: [basic], allCompanies: false }, { perCompany: true })).toBe('Only a company administrator can open Integration');
    expect(adminScreenNotice('My Team', { companies: [basic, basic], allCompanies: true })).toBe('Only a company administrator can open My Team');
  });

  it('tells an administrator in the all-companies view to choose a company, for a screen set per company', () => {
    expect(adminScreenNotice('Integration', { companies: [basic, admin], allCompanies: true }, { perCompany: true })).toBe(
      'Integration is set per company: choose a company to open it',
    );
    // Administering none of them, choosing a company would not help
    expect(adminScreenNotice('Integration', { companies: [basic], allCompanies: true }, { perCompany: true })).toBe('Only a company administrator can open Integration');
  });

  it('says nothing to a user without a company (the dashboard offers to create one)', () => {
    expect(adminScreenNotice('Integration', { companies: [], allCompanies: false }, { perCompany: true })).toBeNull();
  });
});
