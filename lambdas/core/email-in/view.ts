/** GET /emails/{id}: the email record for a member of its company; 404 for anyone else (never say it exists). */
import { notFound } from '../../../shared/errors';
import type { EmailView } from '../../../shared/schemas/emails';
import type { AccountsStore } from '../ports';
import type { EmailStore } from './ports';
import type { EmailRecord } from './types';

export interface EmailCaller {
  userId: string;
  /** The company the call names (query company_id), when the caller is a member of it. */
  companyId?: string;
}

export function toEmailView(r: EmailRecord): EmailView {
  return {
    email_id: r.email_id,
    company_id: r.company_id,
    subject: r.subject,
    from: r.from,
    to: r.address,
    arrived_at: r.arrived_at,
    text: r.text,
    files: r.files,
    rejected_files: r.rejected_files,
    receipt_type: r.receipt_type,
    auth: r.auth,
    state: r.state,
  };
}

export async function getEmail(deps: { emails: EmailStore; store: AccountsStore }, caller: EmailCaller, emailId: string): Promise<EmailView> {
  const record = await deps.emails.get(emailId);
  if (!record) throw notFound('Email not found');
  // A call about one company sees only that company's emails; without one (all-companies view) any company the caller belongs to.
  if (caller.companyId && caller.companyId !== record.company_id) throw notFound('Email not found');
  if (!caller.companyId && !(await deps.store.getMembership(caller.userId, record.company_id))) throw notFound('Email not found');
  return toEmailView(record);
}
