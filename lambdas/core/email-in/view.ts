/** GET /emails/{id}: the email record for a member of its company; 404 for anyone else (never say it exists). */
import { notFound } from '../../../shared/errors';
import type { EmailListItem, EmailListPage, EmailView } from '../../../shared/schemas/emails';
import type { DocumentsStore } from '../documents/ports';
import type { DocumentRecord } from '../documents/types';
import type { AccountsStore } from '../ports';
import { shownEmailInAddress } from './address';
import type { EmailStore } from './ports';
import type { EmailRecord, EmailSummary } from './types';

export interface EmailCaller {
  userId: string;
  /** The company the call names (query company_id), when the caller is a member of it. */
  companyId?: string;
}

/**
 * The email as its panel shows it: `files` are the documents made from the message that still exist; `to` is the
 * company's Email-in addresses the mail was sent to, as addressed (`acme+sales@…`), at the deployed domain
 * (`emailInDomain`, address.ts).
 */
export function toEmailView(r: EmailRecord, files: EmailView['files'], emailInDomain: string): EmailView {
  return { ...toEmailListItem(r, files, emailInDomain), text: r.text };
}

/** The email as the list of mail shows it: the panel's view without the text. */
function toEmailListItem(r: EmailSummary, files: EmailView['files'], emailInDomain: string): EmailListItem {
  return {
    email_id: r.email_id,
    company_id: r.company_id,
    subject: r.subject,
    from: r.from,
    to: (r.to_addresses?.length ? r.to_addresses : [r.address]).map((a) => shownEmailInAddress(a, emailInDomain)).join(', '),
    arrived_at: r.arrived_at,
    files,
    rejected_files: r.rejected_files,
    sender_refused: r.sender_refused ?? null,
    receipt_type: r.receipt_type,
    auth: r.auth,
    state: r.state,
  };
}

/**
 * The documents of the message that still exist in its company, in the message's order: the record lists every
 * document made from its attachments when the mail arrived; one deleted since (or combined into another) is left out,
 * so the panel's count and links are the documents there are (E6).
 */
export async function remainingFiles(deps: { documents: Pick<DocumentsStore, 'getMany'> }, record: EmailRecord): Promise<EmailView['files']> {
  if (record.files.length === 0) return [];
  const existing = await deps.documents.getMany(record.files.map((f) => f.receipt_id), { consistent: true });
  return filesAsNow(record, existing);
}

/**
 * The record's files whose documents are in its company now (`documents`: those read of them), each failed one with
 * why it could not be read — over the monthly limit, a damaged file — as its row in Failed says.
 */
function filesAsNow(record: Pick<EmailSummary, 'company_id' | 'files'>, documents: readonly DocumentRecord[]): EmailView['files'] {
  const now = new Map(documents.filter((d) => d.company_id === record.company_id).map((d) => [d.receipt_id, d]));
  return record.files.flatMap((f) => {
    const doc = now.get(f.receipt_id);
    if (!doc) return [];
    return [doc.status === 'failed' ? { ...f, failed: doc.error_message || 'It could not be read' } : f];
  });
}

/**
 * GET /emails: the mail the company received at its Email-in addresses (the company's and its members'), newest
 * first, a page at a time, each with the documents it made that still exist (one E6 read for the page) and the parts
 * that were not taken with their reasons — so a member can see what became of a mail that made no document. Any
 * member of the company may read it, as any member may open a mail's panel from its documents.
 */
export async function listEmails(
  deps: { emails: EmailStore; documents: Pick<DocumentsStore, 'getMany'>; emailInDomain: string },
  companyId: string,
  page: { after?: string; limit: number },
): Promise<EmailListPage> {
  const { items, next } = await deps.emails.listOfCompany(companyId, page);
  const records = items.filter((r) => r.company_id === companyId);
  const receiptIds = records.flatMap((r) => r.files.map((f) => f.receipt_id));
  const existing = receiptIds.length > 0 ? await deps.documents.getMany(receiptIds, { consistent: true }) : [];
  return {
    items: records.map((r) => toEmailListItem(r, filesAsNow(r, existing), deps.emailInDomain)),
    next,
  };
}

export async function getEmail(
  deps: { emails: EmailStore; store: AccountsStore; documents: Pick<DocumentsStore, 'getMany'>; emailInDomain: string },
  caller: EmailCaller,
  emailId: string,
): Promise<EmailView> {
  const record = await deps.emails.get(emailId);
  if (!record) throw notFound('Email not found');
  // A call about one company sees only that company's emails; without one (all-companies view) any company the caller belongs to.
  if (caller.companyId && caller.companyId !== record.company_id) throw notFound('Email not found');
  if (!caller.companyId && !(await deps.store.getMembership(caller.userId, record.company_id))) throw notFound('Email not found');
  return toEmailView(record, await remainingFiles(deps, record), deps.emailInDomain);
}
