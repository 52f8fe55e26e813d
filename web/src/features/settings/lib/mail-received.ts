import { NO_ATTACHMENT, type EmailListItem, type EmailListPage } from '../../../../../shared/schemas/emails';

/** What a mail became: '1 document', '3 documents', 'No document' when nothing was taken from it. */
export function outcomeText(documents: number): string {
  if (documents <= 0) return 'No document';
  return documents === 1 ? '1 document' : `${documents} documents`;
}

/**
 * Why a received mail became nothing when neither a part nor its sender says why: it had no attachment (as the
 * owner's notice says). null while it is being received, when it became documents, when a part or the sender
 * (the allowed senders) says why, or when its sender checks failed (the warning says it).
 */
export function noDocumentReason(
  mail: Pick<EmailListItem, 'state' | 'sender_refused'> & { files: readonly unknown[]; rejected_files: readonly unknown[]; auth: { warning: string | null } | null },
): string | null {
  if (mail.state === 'receiving' || mail.files.length > 0 || mail.rejected_files.length > 0 || mail.sender_refused || mail.auth?.warning) return null;
  return NO_ATTACHMENT;
}

/** A mail's subject as the list shows it: '(no subject)' when it has none. */
export function subjectText(item: Pick<EmailListItem, 'subject'>): string {
  return item.subject?.trim() || '(no subject)';
}

export interface DocumentTarget {
  pathname: string;
  search: string;
  /** As the documents list opens an inbox row (rowTarget): the edit screen walks the inbox, where mailed documents land. */
  state: { inbox: true };
}

/** Where a document made from a mail opens: its edit screen with ?company_id, walking the inbox. */
export function documentTarget(receiptId: string, companyId: string): DocumentTarget {
  return {
    pathname: `/edit-receipt/${encodeURIComponent(receiptId)}`,
    search: `?${new URLSearchParams({ company_id: companyId }).toString()}`,
    state: { inbox: true },
  };
}

/** Some loaded mail is still being received (its documents being made): the list is read again shortly. */
export function hasReceiving(pages: ReadonlyArray<EmailListPage> | undefined): boolean {
  return Boolean(pages?.some((p) => p.items.some((m) => m.state === 'receiving')));
}
