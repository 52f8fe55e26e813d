import { describe, expect, it } from 'vitest';
import { pageTitle } from '../../../web/src/app/routes';
import { countValidator, vatValidator } from '../../../web/src/features/admin/components/AdminCompanyPage';
import { chosenMonth } from '../../../web/src/features/admin/components/AdminPage';
import { formatMonth } from '../../../web/src/lib/format';
import { ownerName, usageCell, usageTable } from '../../../web/src/features/admin/lib/admin-format';
import { countRequest } from '../../../web/src/features/admin/lib/count-request';
import { companyValidator } from '../../../web/src/features/settings/components/SettingsPage';

describe('admin and settings screens: pure parts', () => {
  it('the Invoices per/mounth cell is used over available; owners by full name', () => {
    expect(usageCell({ used_documents: 12, available_documents: 500 })).toBe('12 / 500');
    expect(ownerName({ user: { name: 'Rasa', surname: 'Petraitė', email: 'r@example.com' } })).toBe('Rasa Petraitė');
    expect(ownerName({ user: { name: '', surname: '', email: 'r@example.com' } })).toBe('—');
  });

  it('the usage CSV has a row per company with what the month’s invoice needs', () => {
    const company = {
      company_id: 'c1',
      name: 'Baltic Foods UAB',
      code: '304112233',
      email: 'in@in.receipts.local',
      created_at: '2025-01-15T09:00:00.000Z',
      user: { name: 'Rasa', surname: 'Petraitė', email: 'rasa@example.com' },
      used_documents: 23,
      available_documents: 500,
      vat_account: '2441',
    };
    expect(usageTable([company], '2026-11')).toEqual({
      headers: ['Month', 'Company', 'Code', 'VAT account', 'User', 'Email', 'Documents used', 'Documents available', 'Date'],
      rows: [['2026-11', 'Baltic Foods UAB', '304112233', '2441', 'Rasa Petraitė', 'rasa@example.com', '23', '500', '15 Jan 25']],
    });
  });

  it('the month of the companies list comes from the address: one of the twelve offered, else this month', () => {
    const months = ['2026-12', '2026-11', '2026-10'];
    expect(chosenMonth('2026-11', months)).toBe('2026-11');
    expect(chosenMonth('2026-12', months)).toBeUndefined();
    expect(chosenMonth('2025-01', months)).toBeUndefined();
    expect(chosenMonth('junk', months)).toBeUndefined();
    expect(chosenMonth(null, months)).toBeUndefined();
    expect(formatMonth('2026-11')).toBe('November 2026');
    expect(formatMonth('2026-01')).toBe('January 2026');
    expect(formatMonth('2026-13')).toBe('2026-13');
  });

  it('the count form says Not a number and at most 5 characters, as the server does', () => {
    expect(countValidator({ available_documents: '250', reset: true })).toEqual({ ok: true, data: { available_documents: '250', reset: true }, errors: {} });
    expect(countValidator({ available_documents: '25o', reset: false }).errors).toEqual({ available_documents: 'Not a number' });
    expect(countValidator({ available_documents: '123456', reset: false }).errors).toEqual({ available_documents: 'At most 5 characters' });
    expect(countValidator({ available_documents: '', reset: false }).errors).toEqual({ available_documents: 'Required field' });
  });

  it('the count form sends only what changed: a reset alone sends no count; a count goes with the quota the page showed', () => {
    expect(countRequest(500, { available_documents: '500', reset: true })).toEqual({ body: {}, reset: true });
    expect(countRequest(500, { available_documents: ' 0500 ', reset: true })).toEqual({ body: {}, reset: true });
    expect(countRequest(500, { available_documents: '40', reset: true })).toEqual({ body: { available_documents: '40', expected_available_documents: 500 }, reset: true });
    expect(countRequest(500, { available_documents: '40', reset: false })).toEqual({ body: { available_documents: '40', expected_available_documents: 500 }, reset: false });
    // Nothing changed and no reset: the count is sent as it is (a 409 tells a page out of date).
    expect(countRequest(500, { available_documents: '500', reset: false })).toEqual({ body: { available_documents: '500', expected_available_documents: 500 }, reset: false });
  });

  it('VAT account at most 10 characters; company name and code required, at most 80', () => {
    expect(vatValidator({ vat_account: '12345678901' }).errors).toEqual({ vat_account: 'At most 10 characters' });
    expect(vatValidator({ vat_account: '' }).ok).toBe(true);
    expect(companyValidator({ name: 'x'.repeat(81), code: ' ' }).errors).toEqual({ name: 'At most 80 characters', code: 'Required field' });
    expect(companyValidator({ name: ' A UAB ', code: '1' })).toMatchObject({ ok: true, data: { name: 'A UAB', code: '1' } });
  });

  it('titles: Admin for /admin and a company page, Settings', () => {
    expect(pageTitle('/admin')).toBe('Admin');
    expect(pageTitle('/admin/01ABC')).toBe('Admin');
    expect(pageTitle('/settings')).toBe('Settings');
  });
});
