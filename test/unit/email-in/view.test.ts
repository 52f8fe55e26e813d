import { describe, expect, it } from 'vitest';
import type { CompanyRecord } from '../../../lambdas/core/accounts/types';
import { emptyChange, type ScopeKey } from '../../../lambdas/core/documents/types';
import type { EmailStore } from '../../../lambdas/core/email-in/ports';
import type { EmailRecord } from '../../../lambdas/core/email-in/types';
import { getEmail, listEmails } from '../../../lambdas/core/email-in/view';
import { seededDocument } from '../../support/document-records';
import { memoryAccounts, MemoryDocuments } from '../documents/fakes';

const record: EmailRecord = {
  email_id: 'E1',
  company_id: 'c1',
  owner_id: 'u1',
  address: 'acme-1@in.receipts.local',
  message_id: '<m1@supplier.example>',
  content_hash: 'h',
  subject: 'Invoices for November',
  from: 'Supplier <billing@supplier.example>',
  from_address: 'billing@supplier.example',
  arrived_at: '2026-11-20T10:00:00.000Z',
  text: 'Three invoices attached.',
  receipt_type: 'receipt',
  files: [
    { receipt_id: 'D1', original_file_name: 'inv-1.pdf' },
    { receipt_id: 'D2', original_file_name: 'inv-2.jpg' },
    { receipt_id: 'D3', original_file_name: 'inv-3.pdf' },
    { receipt_id: 'D4', original_file_name: 'inv-4.pdf' },
  ],
  rejected_files: [],
  auth: { spf: 'pass', dkim: 'pass', dmarc: 'pass', spam: 'pass', virus: 'pass', warning: null },
  raw_key: 'inbound/m1',
  state: 'done',
  created_at: '2026-11-20T10:00:00.000Z',
};

const emails: EmailStore = {
  claim: async () => undefined,
  get: async (id) => (id === record.email_id ? structuredClone(record) : undefined),
  listOfCompany: async () => ({ items: [], next: null }),
  create: async () => false,
  finish: async () => false,
  countNotice: async () => false,
  putEnvelope: async () => undefined,
  envelope: async () => undefined,
};

async function documentsOf(list: [string, ScopeKey][]): Promise<MemoryDocuments> {
  const documents = new MemoryDocuments();
  const change = emptyChange();
  for (const [id, scope] of list) change.puts.push(seededDocument({ receipt_id: id, scope, created_at: '2026-11-20T10:00:00.000Z', email_id: 'E1' }));
  await documents.commit(change);
  return documents;
}

describe('the email panel (GET /emails/{id})', () => {
  it('lists only the documents of the message that still exist in its company', async () => {
    // D2 was deleted; D4's id names a document of another company (never shown).
    const documents = await documentsOf([
      ['D1', 'C#c1'],
      ['D3', 'C#c1'],
      ['D4', 'C#c2'],
    ]);
    const deps = { emails, store: memoryAccounts({ company_id: 'c1' } as CompanyRecord), documents, emailInDomain: '' };
    const view = await getEmail(deps, { userId: 'u1', companyId: 'c1' }, 'E1');
    expect(view.to).toBe('acme-1@in.receipts.local');
    expect(view.files).toEqual([
      { receipt_id: 'D1', original_file_name: 'inv-1.pdf' },
      { receipt_id: 'D3', original_file_name: 'inv-3.pdf' },
    ]);
    // Nothing left: an empty list, the message itself still shown.
    const none = await getEmail({ ...deps, documents: new MemoryDocuments() }, { userId: 'u1' }, 'E1');
    expect(none).toMatchObject({ subject: 'Invoices for November', files: [] });
  });

  it('says why a document of the message could not be read: it waits in Failed (over the monthly limit)', async () => {
    const documents = new MemoryDocuments();
    const change = emptyChange();
    const failed = { status: 'failed' as const, error_message: 'The monthly document limit of this company is reached' };
    change.puts.push(seededDocument({ receipt_id: 'D1', scope: 'C#c1', created_at: '2026-11-20T10:00:00.000Z', email_id: 'E1' }));
    change.puts.push({ ...seededDocument({ receipt_id: 'D3', scope: 'C#c1', created_at: '2026-11-20T10:00:00.000Z', email_id: 'E1' }), ...failed });
    await documents.commit(change);
    const deps = { emails, store: memoryAccounts({ company_id: 'c1' } as CompanyRecord), documents, emailInDomain: '' };
    expect((await getEmail(deps, { userId: 'u1', companyId: 'c1' }, 'E1')).files).toEqual([
      { receipt_id: 'D1', original_file_name: 'inv-1.pdf' },
      { receipt_id: 'D3', original_file_name: 'inv-3.pdf', failed: 'The monthly document limit of this company is reached' },
    ]);
    const list = await listEmails({ ...deps, emails: { ...emails, listOfCompany: async () => ({ items: [structuredClone(record)], next: null }) } }, 'c1', { limit: 20 });
    expect(list.items[0]!.files[1]).toEqual({ receipt_id: 'D3', original_file_name: 'inv-3.pdf', failed: 'The monthly document limit of this company is reached' });
  });

  it('shows the Email-in address the mail came to at the deployed domain', async () => {
    const deps = { emails, store: memoryAccounts({ company_id: 'c1' } as CompanyRecord), documents: await documentsOf([]), emailInDomain: 'in.example.com' };
    expect(await getEmail(deps, { userId: 'u1', companyId: 'c1' }, 'E1')).toMatchObject({ to: 'acme-1@in.example.com' });
  });

  it("shows the company's addresses the mail was sent to as addressed, with their +tag", async () => {
    const tagged = { ...record, to_addresses: ['acme-1+sales@in.receipts.local', 'rasa@in.receipts.local'] };
    const deps = {
      emails: { ...emails, get: async () => structuredClone(tagged) },
      store: memoryAccounts({ company_id: 'c1' } as CompanyRecord),
      documents: await documentsOf([]),
      emailInDomain: 'in.example.com',
    };
    expect(await getEmail(deps, { userId: 'u1', companyId: 'c1' }, 'E1')).toMatchObject({ to: 'acme-1+sales@in.example.com, rasa@in.example.com' });
  });

  it('answers 404 to a caller of another company, whatever documents exist', async () => {
    const documents = await documentsOf([['D1', 'C#c1']]);
    const deps = { emails, store: memoryAccounts({ company_id: 'c2' } as CompanyRecord), documents, emailInDomain: '' };
    await expect(getEmail(deps, { userId: 'stranger', companyId: 'c2' }, 'E1')).rejects.toMatchObject({ statusCode: 404 });
    await expect(getEmail(deps, { userId: 'stranger' }, 'E1')).rejects.toMatchObject({ statusCode: 404 });
  });
});

describe('the mail a company received (GET /emails)', () => {
  const refused: EmailRecord = {
    ...record,
    email_id: 'E2',
    subject: 'Signed contract',
    text: 'See the attachment.',
    files: [],
    rejected_files: [{ original_file_name: 'contract.zip', reason: 'This file type is not allowed' }],
    created_at: '2026-11-21T08:00:00.000Z',
  };
  const asked: { companyId: string; page: { after?: string; limit: number } }[] = [];
  const listing: EmailStore = {
    ...emails,
    listOfCompany: async (companyId, page) => {
      asked.push({ companyId, page });
      return { items: [structuredClone(refused), structuredClone(record)], next: '2026-11-20T10:00:00.000Z#E1' };
    },
  };

  it('answers each mail without its text, with the documents that still exist and the parts not taken', async () => {
    const documents = await documentsOf([
      ['D1', 'C#c1'],
      ['D4', 'C#c2'],
    ]);
    const page = await listEmails({ emails: listing, documents, emailInDomain: 'in.example.com' }, 'c1', { after: '2026-11-22T00:00:00.000Z#E9', limit: 2 });
    expect(asked.at(-1)).toEqual({ companyId: 'c1', page: { after: '2026-11-22T00:00:00.000Z#E9', limit: 2 } });
    expect(page.next).toBe('2026-11-20T10:00:00.000Z#E1');
    expect(page.items.map((m) => m.email_id)).toEqual(['E2', 'E1']);
    expect(page.items[0]).toMatchObject({ subject: 'Signed contract', files: [], rejected_files: refused.rejected_files, to: 'acme-1@in.example.com' });
    // D2 and D3 were deleted, D4 is another company's: only D1 is linked.
    expect(page.items[1].files).toEqual([{ receipt_id: 'D1', original_file_name: 'inv-1.pdf' }]);
    expect(page.items.every((m) => !('text' in m))).toBe(true);
  });

  it('leaves out a record of another company that the store would answer', async () => {
    const mixed: EmailStore = { ...emails, listOfCompany: async () => ({ items: [{ ...record, company_id: 'c2' }], next: null }) };
    const page = await listEmails({ emails: mixed, documents: await documentsOf([]), emailInDomain: '' }, 'c1', { limit: 20 });
    expect(page).toEqual({ items: [], next: null });
  });
});
