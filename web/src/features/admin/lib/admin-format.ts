import type { AdminCompany } from '../../../../../shared/schemas/admin';
import type { ExportTable } from '../../export/lib/table';
import { formatDate, fullName } from '../../../lib/format';

/** The "Invoices per/mounth" cell: the month's documents over the monthly quota (a past month's: the quota it had). */
export function usageCell(company: Pick<AdminCompany, 'used_documents' | 'available_documents'>): string {
  return `${company.used_documents} / ${company.available_documents}`;
}

export function ownerName(company: Pick<AdminCompany, 'user'>): string {
  return fullName(company.user) || '—';
}

/**
 * The companies' usage of one month as a table for the CSV download (the month's invoicing): one row per company, in
 * the list's order, with what an invoice needs — the company, its code and VAT account, the owner and the month's
 * documents over the quota (a past month's rows: the quota recorded for that month, else today's).
 */
export function usageTable(companies: ReadonlyArray<AdminCompany>, month: string): ExportTable {
  return {
    headers: ['Month', 'Company', 'Code', 'VAT account', 'User', 'Email', 'Documents used', 'Documents available', 'Date'],
    rows: companies.map((c) => [
      month,
      c.name,
      c.code,
      c.vat_account,
      fullName(c.user),
      c.user.email,
      String(c.used_documents),
      String(c.available_documents),
      formatDate(c.created_at),
    ]),
  };
}
