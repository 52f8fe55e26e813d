import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { NO_ATTACHMENT, type EmailListItem, type EmailListPage } from '../../../shared/schemas/emails';
import { documentTarget, hasReceiving, noDocumentReason, outcomeText, subjectText } from '../../../web/src/features/settings/lib/mail-received';
import { rowTarget } from '../../../web/src/features/receipts/lib/row-rules';
import { receiptCache } from '../../../web/src/features/live/use-receipt-cache';
import { queryKeys } from '../../../web/src/lib/query-keys';
import { receipt } from './receipt-fixture';

const mail = (over: Partial<EmailListItem> = {}): EmailListItem => ({
  email_id: 'E1',
  company_id: 'C1',
  subject: 'Your rides in March',
  from: 'billing@taxi.example',
  to: 'acme-abc123@in.receipts.local',
  arrived_at: '2026-03-02T10:00:00.000Z',
  files: [],
  rejected_files: [],
  sender_refused: null,
  receipt_type: 'receipt',
  auth: { spf: 'none', dkim: 'none', dmarc: 'none', spam: 'none', virus: 'none', warning: null },
  state: 'done',
  ...over,
});

describe('Settings, Mail received: pure parts', () => {
  it('says what a mail became: no document, one, several', () => {
    expect(outcomeText(0)).toBe('No document');
    expect(outcomeText(1)).toBe('1 document');
    expect(outcomeText(3)).toBe('3 documents');
  });

  it('says why a mail became nothing when no part and no sender says it: it had no attachment', () => {
    expect(noDocumentReason(mail())).toBe(NO_ATTACHMENT);
    // being received, made documents, a part or the sender says why, or the sender checks failed (the warning says it)
    expect(noDocumentReason(mail({ state: 'receiving' }))).toBeNull();
    expect(noDocumentReason(mail({ files: [{ receipt_id: 'R1', original_file_name: 'a.pdf' }] }))).toBeNull();
    expect(noDocumentReason(mail({ rejected_files: [{ original_file_name: 'notes.txt', reason: 'This file type is not allowed' }] }))).toBeNull();
    expect(noDocumentReason(mail({ sender_refused: 'Not taken: the sender is not on the allowed senders list' }))).toBeNull();
    expect(noDocumentReason(mail({ auth: { ...mail().auth, spf: 'fail', warning: 'The sender could not be verified' } }))).toBeNull();
  });

  it('names a mail without a subject', () => {
    expect(subjectText(mail())).toBe('Your rides in March');
    expect(subjectText(mail({ subject: '' }))).toBe('(no subject)');
    expect(subjectText(mail({ subject: '   ' }))).toBe('(no subject)');
  });

  it('opens a document as the documents list opens an inbox row', () => {
    const target = documentTarget('R 1/2', 'C1');
    expect(target).toEqual({ pathname: '/edit-receipt/R%201%2F2', search: '?company_id=C1', state: { inbox: true } });
    expect(target).toEqual(rowTarget({ receipt_id: 'R 1/2', company_id: 'C1', status: 'review' }, 'inbox'));
  });

  it('reads the list again only while a loaded mail is still being received', () => {
    const page = (items: EmailListItem[]): EmailListPage => ({ items, next: null });
    expect(hasReceiving(undefined)).toBe(false);
    expect(hasReceiving([page([mail()]), page([])])).toBe(false);
    expect(hasReceiving([page([mail()]), page([mail({ state: 'receiving' })])])).toBe(true);
  });
});

describe('"Mail received" follows the documents made from mail (live events)', () => {
  it('reads the list of the document’s company again when a mailed document arrives, not for an uploaded one', () => {
    const client = new QueryClient();
    const page: EmailListPage = { items: [mail()], next: null };
    for (const company of ['C1', 'C2']) client.setQueryData(queryKeys.companyEmails(company), { pages: [page], pageParams: [null] });
    const stale = (company: string) => client.getQueryState(queryKeys.companyEmails(company))!.isInvalidated;
    receiptCache(client).applyReceipts([receipt({ receipt_id: 'R1', company_id: 'C1', email_id: null })], { live: true });
    expect([stale('C1'), stale('C2')]).toEqual([false, false]);
    receiptCache(client).applyReceipts([receipt({ receipt_id: 'R2', company_id: 'C1', email_id: 'E1' })], { live: true });
    expect([stale('C1'), stale('C2')]).toEqual([true, false]);
  });
});
