import type { AdminCompany } from '../../../../../shared/schemas/admin';
import { fullName } from '../../../lib/format';

/** The "Invoices per/mounth" cell: this month's documents over the monthly quota. */
export function usageCell(company: Pick<AdminCompany, 'used_documents' | 'available_documents'>): string {
  return `${company.used_documents} / ${company.available_documents}`;
}

export function ownerName(company: Pick<AdminCompany, 'user'>): string {
  return fullName(company.user) || '—';
}
