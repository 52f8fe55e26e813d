/** The document list, counts and every workflow action through the real local API. */
import { textPdf } from '../support/text-pdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ddbDocumentsStore, documentItemsWithIndex } from '../../lambdas/adapters/ddb/documents-store';
import { batchWrite } from '../../lambdas/adapters/ddb/table-ops';
import { countMove } from '../../lambdas/core/documents/status-machine';
import { emptyChange, type DocumentRecord } from '../../lambdas/core/documents/types';
import { matchesSearch } from '../../lambdas/core/documents/search';
import {
  addMembership,
  openLiveChannel,
  registeredUser,
  startTestStack,
  subOf,
  uploadDocument,
  type TestStack,
} from '../support/local-stack';
import { seededDocument } from '../support/document-records';
import { invoicePdf, SAMPLE_INVOICE, uploadDocument as uploadInvoice } from './content-fixtures';

type Summary = {
  receipt_id: string;
  company_id: string | null;
  status: string;
  receipt_type: string;
  flag: boolean;
  version: number;
  user_id: string;
  original_file_name: string;
  duplicate_id: string | null;
  can_be_restarted: boolean;
  page_count: number;
  created_at: string;
  issue_date: string | null;
  error: { message: string } | null;
};
type Page = { items: Summary[]; next: string | null; next_company: string | null };
type Counts = Record<'receipt' | 'invoice', Record<string, number>>;
type Api = Awaited<ReturnType<typeof registeredUser>>['api'];

function seedDoc(i: number, scope: string, over: Partial<DocumentRecord> = {}): DocumentRecord {
  const company = scope.startsWith('C#');
  return seededDocument({
    receipt_id: `SEED${scope.slice(-6).toUpperCase().replace(/[^0-9A-Z]/g, 'X')}${String(i).padStart(6, '0')}`,
    scope: scope as DocumentRecord['scope'],
    created_at: new Date(Date.UTC(2024, 0, 1) + i * 12 * 3600_000).toISOString(),
    receipt_type: i % 2 ? 'invoice' : 'receipt',
    status: company ? (['review', 'ready', 'archive'] as const)[i % 3]! : 'unassigned',
    original_file_name: `file-${i}.pdf`,
    duplicate_id: i % 10 === 0 ? 'SEEDORIGINAL' : null,
    counterparty_name: i % 7 === 0 ? 'Maxima LT, UAB' : `Supplier ${i}`,
    document_number: `INV-${i}`,
    issue_date: new Date(Date.UTC(2023, 11, 1) + i * 24 * 3600_000).toISOString().slice(0, 10),
    total: '10.00',
    ...over,
  });
}

async function pageAll(api: Api, query: string): Promise<{ items: Summary[]; pages: number }> {
  const items: Summary[] = [];
  let next: string | null = null;
  let pages = 0;
  do {
    const res = await api.get(`/receipts?${query}${next ? `&next=${encodeURIComponent(next)}` : ''}`);
    expect(res.status).toBe(200);
    const body = res.body as Page;
    expect(body.items.length).toBeLessThanOrEqual(50);
    items.push(...body.items);
    next = body.next;
    pages += 1;
  } while (next && pages < 50);
  return { items, pages };
}

const newestFirst = (items: Summary[]) => items.every((d, i) => i === 0 || items[i - 1]!.created_at >= d.created_at);

describe('documents: list, counts and workflow', () => {
  let t: TestStack;
  beforeAll(async () => {
    t = await startTestStack();
  });
  afterAll(async () => {
    await t?.stop();
  });

  const counts = async (api: Api, companyId: string) => (await api.get(`/receipts/total-documents?company_id=${companyId}`)).body as Counts;

  async function processed(api: Api, companyId: string, name: string, lines: string[], extra: Record<string, string> = {}) {
    const { request } = await uploadDocument(api, { company_id: companyId, original_file_name: name, ...extra }, await textPdf(lines));
    expect(request.status).toBe(200);
    await t.stack.jobs.idle();
    const page = (await api.get(`/receipts?company_id=${companyId}&search_value=${encodeURIComponent(name)}`)).body as Page;
    const doc = page.items.find((d) => d.original_file_name === name);
    expect(doc, name).toBeDefined();
    return doc!;
  }

  it('lists with every filter, newest first, 50 a page with next', async () => {
    const { api, companyId, token } = await registeredUser(t.stack, 'lister');
    const scope = `C#${companyId}`;
    const docs = Array.from({ length: 130 }, (_, i) => seedDoc(i, scope));
    await batchWrite(docs.flatMap((d) => documentItemsWithIndex(d).map((Item) => ({ PutRequest: { Item } }))));

    const all = await pageAll(api, `company_id=${companyId}`);
    expect(all.pages).toBe(3);
    expect(all.items).toHaveLength(130);
    expect(new Set(all.items.map((d) => d.receipt_id)).size).toBe(130);
    expect(newestFirst(all.items)).toBe(true);

    const invoices = await pageAll(api, `company_id=${companyId}&receipt_type=invoice`);
    expect(invoices.items).toHaveLength(65);
    expect(invoices.items.every((d) => d.receipt_type === 'invoice')).toBe(true);

    const archived = await pageAll(api, `company_id=${companyId}&receipt_status=archive`);
    expect(archived.items.map((d) => d.receipt_id)).toEqual(docs.filter((d) => d.status === 'archive').reverse().map((d) => d.receipt_id));
    expect(newestFirst(archived.items)).toBe(true);

    const readyInvoices = await pageAll(api, `company_id=${companyId}&receipt_status=ready&receipt_type=invoice`);
    expect(readyInvoices.items.map((d) => d.receipt_id)).toEqual(docs.filter((d) => d.status === 'ready' && d.receipt_type === 'invoice').reverse().map((d) => d.receipt_id));

    const january = await pageAll(api, `company_id=${companyId}&created_at_after=2024-01-10&created_at_before=2024-01-20`);
    expect(january.items.map((d) => d.receipt_id)).toEqual(
      docs.filter((d) => d.created_at >= '2024-01-10' && d.created_at < '2024-01-21').reverse().map((d) => d.receipt_id),
    );
    // A day that does not exist is refused, not answered with an empty list
    for (const day of ['2024-13-45', '2024-02-30']) {
      const refused = await api.get(`/receipts?company_id=${companyId}&created_at_after=${day}`);
      expect(refused.status, day).toBe(422);
      expect(refused.body).toMatchObject({ details: [{ path: ['created_at_after'], message: 'Use YYYY-MM-DD' }] });
    }
    const byIssue = await pageAll(api, `company_id=${companyId}&created_at_after=2024-01-01&created_at_before=2024-01-31&by_issue_date=true`);
    expect(byIssue.items.map((d) => d.receipt_id)).toEqual(
      docs.filter((d) => d.issue_date! >= '2024-01-01' && d.issue_date! <= '2024-01-31').reverse().map((d) => d.receipt_id),
    );

    const maxima = await pageAll(api, `company_id=${companyId}&search_value=MAXIMA`);
    expect(maxima.items.map((d) => d.receipt_id)).toEqual(docs.filter((d) => d.counterparty_name.startsWith('Maxima')).reverse().map((d) => d.receipt_id));
    const byNumber = await pageAll(api, `company_id=${companyId}&search_value=inv-129`);
    expect(byNumber.items.map((d) => d.original_file_name)).toEqual(['file-129.pdf']);
    const byFile = await pageAll(api, `company_id=${companyId}&search_value=file-12&receipt_status=ready`);
    expect(byFile.items.map((d) => d.receipt_id)).toEqual(
      docs.filter((d) => matchesSearch(d, ['file', '12']) && d.status === 'ready').reverse().map((d) => d.receipt_id),
    );
    expect(byFile.items.length).toBeGreaterThan(0);

    const dups = await pageAll(api, `company_id=${companyId}&duplicate_id=true`);
    expect(dups.items).toHaveLength(13);
    expect(dups.items.every((d) => d.duplicate_id === 'SEEDORIGINAL')).toBe(true);

    const small = (await api.get(`/receipts?company_id=${companyId}&limit=7`)).body as Page;
    expect(small.items).toHaveLength(7);
    expect(small.next).toEqual(expect.any(String));
    expect((await api.get(`/receipts?company_id=${companyId}&next=garbage`)).status).toBe(400);

    // All companies: newest first across companies, one next for all of them.
    const second = (await api.post('/company', { company_name: 'Second list co', code: '22' })).body as { company_id: string };
    const seconds = Array.from({ length: 20 }, (_, i) => seedDoc(i, `C#${second.company_id}`));
    await batchWrite(seconds.flatMap((d) => documentItemsWithIndex(d).map((Item) => ({ PutRequest: { Item } }))));
    // their counts, as every write keeps them (the view passes over companies whose counts show nothing)
    await ddbDocumentsStore.commit({ ...emptyChange(), counts: [...docs, ...seconds].flatMap((d) => countMove(null, d)) });
    const first = (await api.get('/receipts?selected=ALL&company_id=NONE')).body as Page;
    expect(first.items).toHaveLength(50);
    // newest first across companies: one cursor (next) for all of them
    expect(first.next).toEqual(expect.any(String));
    const everything = await pageAll(api, 'selected=ALL');
    expect(everything.items).toHaveLength(150);
    expect(new Set(everything.items.map((d) => d.company_id))).toEqual(new Set([companyId, second.company_id]));

    // Unassigned: the caller's own documents without a company.
    const me = subOf(token);
    await batchWrite(Array.from({ length: 3 }, (_, i) => seedDoc(i, `U#${me}`)).flatMap((d) => documentItemsWithIndex(d).map((Item) => ({ PutRequest: { Item } }))));
    const unassigned = await pageAll(api, 'company_id=NONE&receipt_status=unassigned');
    expect(unassigned.items).toHaveLength(3);
    expect(unassigned.items.every((d) => d.status === 'unassigned' && d.company_id === null)).toBe(true);
    // ... and they are not in any company's inbox.
    expect((await pageAll(api, `company_id=${companyId}&search_value=file-0.pdf`)).items.every((d) => d.company_id === companyId)).toBe(true);
  });

  it('moves documents through every status with exact counts, live events and history', async () => {
    const { api, companyId, token, user } = await registeredUser(t.stack, 'flow');
    const a = await processed(api, companyId, 'a.pdf', ['ACME UAB', 'Invoice No. A-1', 'Total 10.00 EUR']);
    const b = await processed(api, companyId, 'b.pdf', ['BETA UAB', 'Invoice No. B-1', 'Total 20.00 EUR']);
    expect([a.status, b.status]).toEqual(['review', 'review']);
    expect((await counts(api, companyId)).receipt).toMatchObject({ review: 2 });
    const live = await openLiveChannel(t.stack.wsUrl, token, companyId);
    const status = (id: string, s: string, version?: number) => api.post(`/receipt/${id}/status?company_id=${companyId}`, { status: s, version });

    const archived = await status(a.receipt_id, 'archive');
    expect(archived.status).toBe(200);
    expect(archived.body).toMatchObject({ status: 'archive', disabled_for_editing: true, version: a.version + 1 });
    expect((await counts(api, companyId)).receipt).toMatchObject({ review: 1, archive: 1 });
    expect((await live.waitFor('receipt-update')).payload).toMatchObject({ receipt_id: a.receipt_id, status: 'archive' });

    // Archived documents are read-only.
    const readOnly = [
      await api.post(`/receipt/${a.receipt_id}/flag?company_id=${companyId}`, { flag: true }),
      await api.post(`/receipt/${a.receipt_id}/type?company_id=${companyId}`, { receipt_type: 'invoice' }),
      await status(a.receipt_id, 'reject'),
      await status(a.receipt_id, 'ready'),
    ];
    for (const res of readOnly) expect(res.body).toMatchObject({ statusCode: 409, message: 'Archived documents are read-only' });

    expect((await status(a.receipt_id, 'unarchive')).body).toMatchObject({ status: 'review' });
    expect((await status(a.receipt_id, 'ready')).body).toMatchObject({ status: 'ready' });
    expect((await counts(api, companyId)).receipt).toMatchObject({ review: 1, ready: 1, archive: 0 });
    expect((await status(a.receipt_id, 'review')).body).toMatchObject({ status: 'review' });
    expect((await status(a.receipt_id, 'rejected')).body).toMatchObject({ status: 'rejected' });
    expect((await status(a.receipt_id, 'reject')).status).toBe(409);
    expect((await counts(api, companyId)).receipt).toMatchObject({ review: 1, rejected: 1 });

    const flagged = await api.post(`/receipt/${a.receipt_id}/flag?company_id=${companyId}`, { flag: true });
    expect(flagged.body).toMatchObject({ flag: true });
    const converted = await api.post(`/receipt/${a.receipt_id}/type?company_id=${companyId}`, { receipt_type: 'invoice' });
    // The supplier's content moves to the customer: an invoice's counterparty is its customer.
    expect(converted.body).toMatchObject({ receipt_type: 'invoice', status: 'rejected', supplierCustomerName: 'ACME UAB' });
    const content = (await api.get(`/receipts/${a.receipt_id}?company_id=${companyId}`)).body as { content: { children: { schema_id: string; content: { value: string } | null }[] }[] };
    const valueOf = (id: string) => content.content.flatMap((s) => s.children).find((c) => c.schema_id === id)?.content?.value;
    expect([valueOf('customer_name'), valueOf('supplier_name')]).toEqual(['ACME UAB', '']);
    const c1 = await counts(api, companyId);
    expect(c1.receipt).toMatchObject({ review: 1, rejected: 0 });
    expect(c1.invoice).toMatchObject({ rejected: 1 });
    const back = await api.post(`/receipt/${a.receipt_id}/type?company_id=${companyId}`, { receipt_type: 'receipt' });
    expect(back.body).toMatchObject({ receipt_type: 'receipt', supplierCustomerName: 'ACME UAB' });


    // A stale version is refused with the current version; nothing is written.
    const current = (back.body as Summary).version;
    const stale = await status(a.receipt_id, 'ready', current - 1);
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ statusCode: 409, details: { version: current } });
    expect((await status(a.receipt_id, 'ready', current)).body).toMatchObject({ status: 'ready', version: current + 1 });

    const history = (await api.get(`/receipts/${a.receipt_id}/history?company_id=${companyId}`)).body as { items: { name: string; user: { name: string; surname: string } }[] };
    expect(history.items.map((h) => h.name)).toEqual([
      'Uploaded',
      expect.stringMatching(/^Recognised/),
      'Moved to archive',
      'Unarchived',
      'Marked ready',
      'Moved to review',
      'Rejected',
      'Flagged',
      'Converted to invoice',
      'Converted to receipt',
      'Marked ready',
    ]);
    expect(history.items.at(-1)!.user).toEqual({ name: user.name, surname: user.surname });

    const deleted = await api.delete(`/receipt/${b.receipt_id}?company_id=${companyId}`);
    expect(deleted.body).toEqual({ deleted: true, receipt_id: b.receipt_id });
    expect((await live.waitFor('receipt-delete')).payload).toMatchObject({ receipt_id: b.receipt_id });
    expect((await api.get(`/receipts/${b.receipt_id}?company_id=${companyId}`)).status).toBe(404);
    const c2 = await counts(api, companyId);
    expect(c2.receipt).toMatchObject({ review: 0, ready: 1 });
    live.close();
  });

  it('converting a cost receipt uploaded as a sales invoice keeps its seller as the supplier', async () => {
    const { api, companyId } = await registeredUser(t.stack, 'mistyped');
    // its seller is read as the supplier and there is no customer; moving the seller to the customer side, as a
    // conversion does when the counterparty is on the other side, would leave the receipt without a supplier
    const misTyped = await processed(api, companyId, 'mis-typed.pdf', ['GAMMA UAB', 'Receipt No. G-1', 'Total 30.00 EUR'], { receipt_type: 'invoice' });
    expect(misTyped.receipt_type).toBe('invoice');
    const fixed = await api.post(`/receipt/${misTyped.receipt_id}/type?company_id=${companyId}`, { receipt_type: 'receipt' });
    expect(fixed.body).toMatchObject({ receipt_type: 'receipt', supplierCustomerName: 'GAMMA UAB' });
    const detail = (await api.get(`/receipts/${misTyped.receipt_id}?company_id=${companyId}`)).body as { content: { children: { schema_id: string; content: { value: string } | null }[] }[] };
    const valueOf = (id: string) => detail.content.flatMap((s) => s.children).find((c) => c.schema_id === id)?.content?.value;
    expect([valueOf('supplier_name'), valueOf('customer_name')]).toEqual(['GAMMA UAB', '']);
  });

  it('gives an unassigned document a company: new id, read there (processing, then review), the target company counts and quota', async () => {
    const { api, companyId } = await registeredUser(t.stack, 'nocompany');
    const { request } = await uploadDocument(api, { company_id: 'NONE', original_file_name: 'loose.pdf' }, await textPdf(['LOOSE UAB', 'Total 3.00']));
    expect(request.status).toBe(200);
    await t.stack.jobs.idle();
    const unassigned = (await api.get('/receipts?company_id=NONE&receipt_status=unassigned')).body as Page;
    expect(unassigned.items).toHaveLength(1);
    const loose = unassigned.items[0]!;
    expect(loose).toMatchObject({ status: 'unassigned', company_id: null });
    expect((await counts(api, companyId)).receipt.unassigned).toBe(1);
    expect((await api.get(`/receipts?company_id=${companyId}`)).body).toMatchObject({ items: [] });

    const moved = await api.post(`/receipts/${loose.receipt_id}/company?company_id=NONE`, { company_id: companyId });
    expect(moved.status).toBe(200);
    const body = moved.body as { receipt_id: string; company_id: string; receipt: Summary };
    expect(body.receipt_id).not.toBe(loose.receipt_id);
    // Not read while unassigned: its reading starts in the chosen company.
    expect(body.receipt).toMatchObject({ status: 'processing', company_id: companyId });
    expect((await api.get(`/receipts/${loose.receipt_id}?company_id=NONE`)).status).toBe(404);
    await t.stack.jobs.idle();
    const c = await counts(api, companyId);
    expect(c.receipt).toMatchObject({ review: 1, processing: 0, unassigned: 0 });
    const history = (await api.get(`/receipts/${body.receipt_id}/history?company_id=${companyId}`)).body as { items: { name: string }[] };
    expect(history.items.map((h) => h.name)).toEqual(['Uploaded', 'Waiting for a company: not read yet', expect.stringMatching(/^Company selected/), expect.stringMatching(/^Recognised: to review/)]);
    const companies = (await api.get('/companies')).body as { items: { used_documents: number }[] };
    expect(companies.items[0]!.used_documents).toBe(1);
    // Not again, and not to a company the caller is not in.
    expect((await api.post(`/receipts/${body.receipt_id}/company?company_id=${companyId}`, { company_id: companyId })).status).toBe(404);
  });

  it("all-companies view: the caller's uploads are counted and listed under their own status, only those waiting for a company under Unassigned; nobody else sees them", async () => {
    const { api, companyId, token } = await registeredUser(t.stack, 'loosetabs');
    await api.post('/company', { company_name: 'Second loose co', code: '23' });
    const me = subOf(token);
    expect((await uploadDocument(api, { company_id: 'NONE', original_file_name: 'good.pdf' }, await textPdf(['GOOD UAB', 'Total 3.00']))).request.status).toBe(200);
    expect((await uploadDocument(api, { company_id: 'NONE', original_file_name: 'broken.pdf' }, new TextEncoder().encode('garbage '.repeat(40)))).request.status).toBe(200);
    await t.stack.jobs.idle();
    // One more upload still being read (committed as the processing job creates it, counts included; no job follows).
    const reading = seededDocument({ receipt_id: 'LOOSEREADING000001', scope: `U#${me}`, created_at: new Date().toISOString(), status: 'processing', original_file_name: 'reading.pdf', user_id: me });
    await ddbDocumentsStore.commit({ ...emptyChange(), puts: [reading], counts: countMove(null, reading) });

    const all = (await api.get('/receipts/total-documents?selected=ALL')).body as Counts;
    const both = (c: Counts, status: string) => c.receipt[status]! + c.invoice[status]!;
    expect([both(all, 'processing'), both(all, 'failed'), both(all, 'unassigned')]).toEqual([1, 1, 1]);
    const names = async (query: string) => (await pageAll(api, query)).items.map((d) => `${d.original_file_name}:${d.status}`).sort();
    expect(await names('selected=ALL&receipt_status=processing')).toEqual(['reading.pdf:processing']);
    expect(await names('selected=ALL&receipt_status=failed')).toEqual(['broken.pdf:failed']);
    expect(await names('company_id=NONE&receipt_status=unassigned')).toEqual(['good.pdf:unassigned']);
    // The inbox: everything but the documents waiting for a company, as its badge counts.
    expect(await names('selected=ALL')).toEqual(['broken.pdf:failed', 'reading.pdf:processing']);
    // One company's view: that company's lists; the Unassigned list and count stay the caller's.
    const one = await counts(api, companyId);
    expect([both(one, 'processing'), both(one, 'failed'), both(one, 'unassigned')]).toEqual([0, 0, 1]);
    expect(await names(`company_id=${companyId}&receipt_status=failed`)).toEqual([]);

    // Another user, in their own all-companies view, sees none of it, and cannot page into it.
    const stranger = await registeredUser(t.stack, 'loosestranger');
    await stranger.api.post('/company', { company_name: 'Stranger second', code: '24' });
    const theirs = (await stranger.api.get('/receipts/total-documents?selected=ALL')).body as Counts;
    expect([both(theirs, 'processing'), both(theirs, 'failed'), both(theirs, 'unassigned')]).toEqual([0, 0, 0]);
    for (const status of ['inbox', 'processing', 'failed', 'unassigned']) {
      expect((await pageAll(stranger.api, `selected=ALL&receipt_status=${status}`)).items, status).toEqual([]);
    }
    expect((await stranger.api.get(`/receipts?selected=ALL&receipt_status=processing&next_company=${me}`)).status).toBe(400);
  });

  it('finds duplicates, combines documents, restarts failed ones, exports XML and acts in bulk', async () => {
    const { api, companyId } = await registeredUser(t.stack, 'tools');
    const bytes = await textPdf(['DUO UAB', 'Invoice No. D-1', 'Total 7.00 EUR']);
    await uploadDocument(api, { company_id: companyId, original_file_name: 'one.pdf' }, bytes);
    await t.stack.jobs.idle();
    await uploadDocument(api, { company_id: companyId, original_file_name: 'two.pdf' }, bytes);
    await t.stack.jobs.idle();
    const [two, one] = ((await api.get(`/receipts?company_id=${companyId}`)).body as Page).items;
    expect(two!.duplicate_id).toBe(one!.receipt_id);
    expect(one!.duplicate_id).toBeNull();
    const dup = (await api.get(`/receipts/${two!.receipt_id}/duplicates?company_id=${companyId}`)).body as { items: { receipt_id: string; reason: string }[] };
    expect(dup.items).toEqual([expect.objectContaining({ receipt_id: one!.receipt_id, reason: 'same_file', original_file_name: 'one.pdf' })]);
    const companies = (await api.get('/companies')).body as { items: { duplicated_documents_per_month: number; used_documents: number }[] };
    expect(companies.items[0]).toMatchObject({ duplicated_documents_per_month: 1, used_documents: 2 });
    const group = (await api.get(`/receipts?company_id=${companyId}&duplicate_id=${one!.receipt_id}`)).body as Page;
    expect(group.items.map((d) => d.receipt_id).sort()).toEqual([one!.receipt_id, two!.receipt_id].sort());

    // Export XML of the selection.
    const exported = await api.post(`/receipts/export-xml?company_id=${companyId}`, { receipt_ids: [one!.receipt_id, two!.receipt_id] });
    expect(exported.status).toBe(200);
    expect(exported.headers.get('content-type')).toMatch(/application\/xml/);
    const text = String(exported.body);
    expect(text).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>/);
    expect(text).toContain(`id="${one!.receipt_id}"`);
    expect(text).toContain('DUO UAB');
    expect((await api.post(`/receipts/export-xml?company_id=${companyId}`, { receipt_ids: [one!.receipt_id, 'NOPE'] })).status).toBe(404);

    // Combine: two's pages join one, two is gone and no longer counted.
    const combined = await api.post(`/receipts/${one!.receipt_id}/combine?company_id=${companyId}`, { receipt_id: two!.receipt_id });
    expect(combined.body).toMatchObject({ receipt_id: one!.receipt_id, page_count: 2 });
    expect((await api.get(`/receipts/${two!.receipt_id}?company_id=${companyId}`)).status).toBe(404);
    expect((await counts(api, companyId)).receipt).toMatchObject({ review: 1 });
    const detail = (await api.get(`/receipts/${one!.receipt_id}?company_id=${companyId}`)).body as { pages: { url: string }[]; related_documents: { receipt_id: string }[] };
    expect(detail.pages).toHaveLength(2);
    expect(detail.related_documents.map((r) => r.receipt_id)).toEqual([two!.receipt_id]);
    expect((await fetch(detail.pages[1]!.url)).status).toBe(200);

    // Restart: only failed documents; it goes to processing with can_be_restarted false.
    expect((await api.post(`/receipts/${one!.receipt_id}/restart?company_id=${companyId}`, {})).status).toBe(409);
    await uploadDocument(api, { company_id: companyId, original_file_name: 'bad.pdf' }, new TextEncoder().encode('%PDF-1.4 broken'));
    await t.stack.jobs.idle();
    const failed = ((await api.get(`/receipts?company_id=${companyId}&receipt_status=failed`)).body as Page).items[0]!;
    expect(failed).toMatchObject({ can_be_restarted: true, error: { message: 'The PDF file is damaged and cannot be read' } });
    const restarted = await api.post(`/receipts/${failed.receipt_id}/restart?company_id=${companyId}`, {});
    expect(restarted.body).toMatchObject({ status: 'processing', can_be_restarted: false, error: null });
    await t.stack.jobs.idle();
    const again = (await api.get(`/receipts/${failed.receipt_id}?company_id=${companyId}`)).body as Summary;
    expect(again).toMatchObject({ status: 'failed', can_be_restarted: true });
    expect((await counts(api, companyId)).receipt).toMatchObject({ failed: 1, processing: 0 });

    // Bulk: per-document results; another company's or a missing id is a 404 of its own; a failed document, never
    // read, is not archived as if booked.
    const bulk = await api.post(`/receipts/bulk?company_id=${companyId}`, { action: 'status', status: 'archive', receipt_ids: [one!.receipt_id, failed.receipt_id, 'NOPE'] });
    expect(bulk.body).toEqual({
      results: [
        expect.objectContaining({ receipt_id: one!.receipt_id, ok: true, status: 200 }),
        { receipt_id: failed.receipt_id, ok: false, status: 409, message: 'A document in status failed cannot be moved by archive' },
        { receipt_id: 'NOPE', ok: false, status: 404, message: 'Document not found' },
      ],
    });
    expect((await counts(api, companyId)).receipt).toMatchObject({ archive: 1, review: 0, failed: 1 });
    // Rejected, it no longer offers Try Again (a restart starts failed documents only), nor can it be marked ready.
    const rejected = await api.post(`/receipt/${failed.receipt_id}/status?company_id=${companyId}`, { status: 'reject' });
    expect(rejected.body).toMatchObject({ status: 'rejected', can_be_restarted: false });
    const bulkReady = await api.post(`/receipts/bulk?company_id=${companyId}`, { action: 'status', status: 'ready', receipt_ids: [failed.receipt_id] });
    expect(bulkReady.body).toMatchObject({ results: [{ ok: false, status: 422, message: 'Failed to update the receipt. Please check if all mandatory fields are filled.' }] });
    expect((await counts(api, companyId)).receipt).toMatchObject({ rejected: 1, ready: 0 });
    const bulkFlag = await api.post(`/receipts/bulk?company_id=${companyId}`, { action: 'flag', flag: true, receipt_ids: [one!.receipt_id] });
    expect(bulkFlag.body).toMatchObject({ results: [{ ok: false, status: 409, message: 'Archived documents are read-only' }] });
    const bulkDelete = await api.post(`/receipts/bulk?company_id=${companyId}`, { action: 'delete', receipt_ids: [one!.receipt_id, failed.receipt_id] });
    expect((bulkDelete.body as { results: { ok: boolean }[] }).results.every((r) => r.ok)).toBe(true);
    expect((await counts(api, companyId)).receipt).toMatchObject({ archive: 0 });
  });

  it('combines with word boxes on every page; a ready document goes back to review; a failed one is not combined', async () => {
    const { api, companyId } = await registeredUser(t.stack, 'combine');
    const q = `company_id=${companyId}`;
    const first = await uploadInvoice(t.stack, api, companyId, await invoicePdf({ ...SAMPLE_INVOICE, number: 'CB-1' }), 'cb-1.pdf');
    const second = await uploadInvoice(t.stack, api, companyId, await invoicePdf({ ...SAMPLE_INVOICE, number: 'CB-2' }), 'cb-2.pdf');
    const statusOf = async (id: string) => ((await api.get(`/receipts/${id}?${q}`)).body as Summary).status;
    expect([await statusOf(first), await statusOf(second)]).toEqual(['ready', 'ready']);
    const before = await counts(api, companyId);
    const combined = await api.post(`/receipts/${first}/combine?${q}`, { receipt_id: second });
    expect(combined.status).toBe(200);
    expect(combined.body).toMatchObject({ receipt_id: first, page_count: 2, status: 'review' });
    expect((await counts(api, companyId)).receipt).toMatchObject({ ready: before.receipt.ready - 2, review: before.receipt.review + 1 });
    // The merged page's words can be picked as the first page's
    type Boxes = { pages: { page: number; words: { text: string }[] }[] };
    const boxes = (await api.get(`/receipts/${first}/bboxes?${q}`)).body as Boxes;
    expect(boxes.pages.map((p) => p.page)).toEqual([1, 2]);
    expect(boxes.pages[0]!.words.map((w) => w.text)).toContain('CB-1');
    expect(boxes.pages[1]!.words.map((w) => w.text)).toEqual(expect.arrayContaining(['CB-2', '121.00']));
    // A failed document keeps its own file for Try Again: neither side of a merge
    await uploadDocument(api, { company_id: companyId, original_file_name: 'cb-bad.pdf' }, new TextEncoder().encode('%PDF-1.4 broken'));
    await t.stack.jobs.idle();
    const failed = ((await api.get(`/receipts?${q}&receipt_status=failed`)).body as Page).items[0]!;
    for (const [target, other] of [
      [failed.receipt_id, first],
      [first, failed.receipt_id],
    ]) {
      const refused = await api.post(`/receipts/${target}/combine?${q}`, { receipt_id: other });
      expect(refused.status).toBe(409);
      expect(refused.body).toMatchObject({ message: 'A document in status failed cannot be combined' });
    }
    expect(((await api.get(`/receipts/${failed.receipt_id}?${q}`)).body as Summary).page_count).toBe(failed.page_count);
    expect(((await api.get(`/receipts/${first}?${q}`)).body as Summary).page_count).toBe(2);
  });

  it('does not combine unassigned documents: choosing a company reads the document from its own file and would drop the other pages', async () => {
    const { api } = await registeredUser(t.stack, 'combineloose');
    for (const name of ['loose-1.pdf', 'loose-2.pdf']) {
      expect((await uploadDocument(api, { company_id: 'NONE', original_file_name: name }, await textPdf([`${name} UAB`, 'Total 4.00']))).request.status).toBe(200);
    }
    await t.stack.jobs.idle();
    const before = ((await api.get('/receipts?company_id=NONE&receipt_status=unassigned')).body as Page).items;
    expect(before.map((d) => d.status)).toEqual(['unassigned', 'unassigned']);
    const [a, b] = before as [Summary, Summary];
    for (const [target, other] of [
      [a, b],
      [b, a],
    ] as const) {
      const refused = await api.post(`/receipts/${target.receipt_id}/combine?company_id=NONE`, { receipt_id: other.receipt_id, version: target.version });
      expect(refused.status).toBe(409);
      expect(refused.body).toMatchObject({ message: 'Choose a company for these documents before combining them' });
    }
    // Both unchanged: own page, own version, still waiting for a company.
    for (const doc of [a, b]) {
      const now = (await api.get(`/receipts/${doc.receipt_id}?company_id=NONE`)).body as Summary & { related_documents: unknown[] };
      expect(now).toMatchObject({ status: 'unassigned', page_count: 1, version: doc.version, related_documents: [] });
    }
  });

  it('marks ready by hand only what a confirm would take; an edit that breaks a ready document sends it back to review', async () => {
    const { api, companyId } = await registeredUser(t.stack, 'readyrule');
    const q = `company_id=${companyId}`;
    const ready = await uploadInvoice(t.stack, api, companyId, await invoicePdf({ ...SAMPLE_INVOICE, number: 'RR-1' }), 'rr-1.pdf');
    const bare = await processed(api, companyId, 'rr-bare.pdf', ['NOTHING TO READ HERE']);
    expect(bare.status).toBe('review');
    type Detail = Summary & { content: { children: { id: string; schema_id: string; content: { value: string } | null }[] }[] };
    const detail = async (id: string) => (await api.get(`/receipts/${id}?${q}`)).body as Detail;
    expect((await detail(ready)).status).toBe('ready');

    // By hand: refused with the edit screen's message and errors while required values are missing.
    const refused = await api.post(`/receipt/${bare.receipt_id}/status?${q}`, { status: 'ready' });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ message: 'Failed to update the receipt. Please check if all mandatory fields are filled.' });
    const bulkRefused = await api.post(`/receipts/bulk?${q}`, { action: 'status', status: 'ready', receipt_ids: [bare.receipt_id] });
    expect(bulkRefused.body).toMatchObject({ results: [{ receipt_id: bare.receipt_id, ok: false, status: 422 }] });
    expect((await detail(bare.receipt_id)).status).toBe('review');

    // Clearing a ready document's number (a required field): saved, and the document is back in review with its counts.
    const before = await counts(api, companyId);
    const doc = await detail(ready);
    const number = doc.content.flatMap((s) => s.children).find((c) => c.schema_id === 'document_id')!;
    const saved = await api.put(`/receipts/${ready}/content?${q}`, { version: doc.version, items: [{ id: number.id, value: '' }] });
    expect(saved.status).toBe(200);
    const after = await detail(ready);
    expect(after.status).toBe('review');
    expect((await counts(api, companyId)).receipt).toMatchObject({ ready: before.receipt.ready - 1, review: before.receipt.review + 1 });
    const history = (await api.get(`/receipts/${ready}/history?${q}`)).body as { items: { name: string }[] };
    expect(history.items.map((h) => h.name)).toEqual(expect.arrayContaining([expect.stringMatching(/^Edited /), 'Moved to review: a required value is missing or not valid']));
    // Typed back, it is marked ready by hand again; an edit that keeps it valid (the total cleared: not required)
    // leaves it ready.
    const typed = await api.put(`/receipts/${ready}/content?${q}`, { version: after.version, items: [{ id: number.id, value: 'RR-1' }] });
    expect(typed.status).toBe(200);
    expect((await api.post(`/receipt/${ready}/status?${q}`, { status: 'ready' })).body).toMatchObject({ status: 'ready' });
    const again = await detail(ready);
    const total = again.content.flatMap((s) => s.children).find((c) => c.schema_id === 'amount_total')!;
    expect((await api.put(`/receipts/${ready}/content?${q}`, { version: again.version, items: [{ id: total.id, value: '' }] })).status).toBe(200);
    expect((await detail(ready)).status).toBe('ready');
  });

  it('lets an admin choose another member as owner, but not a basic user', async () => {
    const admin = await registeredUser(t.stack, 'owneradmin');
    const member = await registeredUser(t.stack, 'ownermember');
    const outsider = await registeredUser(t.stack, 'owneroutsider');
    const memberId = subOf(member.token);
    await addMembership(memberId, admin.companyId, 'basic');
    const bytes = await textPdf(['OWNER UAB']);
    const chosen = await uploadDocument(admin.api, { company_id: admin.companyId, original_file_name: 'o.pdf', user_id: memberId }, bytes);
    expect(chosen.request.status).toBe(200);
    expect(chosen.upload!.key).toContain(`/${memberId}/`);
    await t.stack.jobs.idle();
    const doc = ((await admin.api.get(`/receipts?company_id=${admin.companyId}`)).body as Page).items[0]!;
    expect(doc.user_id).toBe(memberId);
    const notMember = await admin.api.get(`/upload/document?company_id=${admin.companyId}&original_file_name=x.pdf&size=10&user_id=${subOf(outsider.token)}`);
    expect(notMember.body).toMatchObject({ statusCode: 422, message: 'The owner must be a member of the company', details: [{ path: ['user_id'] }] });
    const basic = await member.api.get(`/upload/document?company_id=${admin.companyId}&original_file_name=x.pdf&size=10&user_id=${subOf(admin.token)}`);
    expect(basic.body).toMatchObject({ statusCode: 403, message: 'Only a company administrator can choose the owner' });
    // A basic member uploads for themselves and sees the company's documents.
    expect((await member.api.get(`/upload/document?company_id=${admin.companyId}&original_file_name=x.pdf&size=10`)).status).toBe(200);
    expect(((await member.api.get(`/receipts?company_id=${admin.companyId}`)).body as Page).items).toHaveLength(1);
  });
});
