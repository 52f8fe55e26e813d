import type { EmailListItem, EmailListPage } from '../../../../../shared/schemas/emails';

/** What a mail became: '1 document', '3 documents', 'No document' when nothing was taken from it. */
export function outcomeText(documents: number): string {
  if (documents <= 0) return 'No document';
  return documents === 1 ? '1 document' : `${documents} documents`;
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
