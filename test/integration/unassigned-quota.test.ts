/**
 * What the monthly document quota pays for (docs/decisions.md, "Quota numbers"): an unassigned upload (all-companies
 * view, company_id=NONE) is not read until a company is chosen, and choosing one reads it there and charges it; a file
 * that never became a usable document (not the type its name says, damaged) gives its charge back, once.
 * Real handlers, local stand-ins and job queue.
 */
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { monthOf } from '../../lambdas/core/accounts/companies';
import { MAX_SPLIT_PAGES, TOO_MANY_PAGES_MESSAGE } from '../../lambdas/core/documents/intake';
import { CHARGE_RETURNED, failDocument } from '../../lambdas/core/documents/processing';
import { countMove } from '../../lambdas/core/documents/status-machine';
import { emptyChange, type DocumentRecord } from '../../lambdas/core/documents/types';
import { deps } from '../../lambdas/runtime/deps';
import { s3Files } from '../../lambdas/adapters/s3/files';
import { NOT_STARTED_MESSAGE } from '../../lambdas/core/documents/workflow';
import { seededDocument } from '../support/document-records';
import { registerUser } from '../../scripts/local/seed';
import { apiClient, newUser, registeredUser, setAvailableDocuments, signIn, startTestStack, uploadDocument, type TestStack } from '../support/local-stack';
import { invoicePdf, SAMPLE_INVOICE } from './content-fixtures';

type Summary = {
  receipt_id: string;
  company_id: string | null;
  status: string;
  supplierCustomerName: string;
  document_number: string;
  total: string | null;
  issue_date: string | null;
  page_count: number;
  error: { message: string } | null;
  can_be_restarted: boolean;
  version: number;
};
type Detail = Summary & { content: unknown[]; pages: { url: string | null }[] };
type Api = Awaited<ReturnType<typeof registeredUser>>['api'];

async function usedDocuments(api: Api, companyId: string): Promise<number> {
  const companies = (await api.get('/companies')).body as { items: { company_id: string; used_documents: number }[] };
  return companies.items.find((c) => c.company_id === companyId)!.used_documents;
}

async function unassigned(api: Api): Promise<Summary[]> {
  return ((await api.get('/receipts?company_id=NONE&receipt_status=unassigned')).body as { items: Summary[] }).items;
}

async function waitForStatus(t: TestStack, api: Api, receiptId: string, companyId: string, done: (s: string) => boolean): Promise<Detail> {
  for (let i = 0; i < 150; i++) {
    await t.stack.jobs.idle(60_000);
    const detail = (await api.get(`/receipts/${receiptId}?company_id=${companyId}`)).body as Detail;
    if (done(detail.status)) return detail;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`document ${receiptId} did not finish`);
}

describe('the quota pays for reading: unassigned uploads and unreadable files', { timeout: 150_000 }, () => {
  const PLATFORM_ADMIN_EMAIL = 'platform-admin-quota@example.com';
  let t: TestStack;
  let admin: Api;
  beforeAll(async () => {
    t = await startTestStack({ globalAdminEmails: [PLATFORM_ADMIN_EMAIL] });
    const user = { ...newUser('platform'), email: PLATFORM_ADMIN_EMAIL };
    await registerUser(t.stack, user);
    admin = apiClient(t.stack.apiUrl, await signIn(t.stack, user));
  });
  afterAll(async () => {
    await t?.stop();
  }, 240_000);

  it('an unassigned upload of a company at quota 0 is kept unread and uncharged; choosing the company is refused with 429', async () => {
    const { api, companyId } = await registeredUser(t.stack, 'noquota');
    await setAvailableDocuments(companyId, 0);
    const bytes = await invoicePdf();
    expect((await uploadDocument(api, { company_id: companyId, original_file_name: 'to-company.pdf' }, bytes)).request.status).toBe(429);
    expect((await uploadDocument(api, { company_id: 'NONE', original_file_name: 'loose.pdf' }, bytes)).request.status).toBe(200);
    await t.stack.jobs.idle(60_000);

    const rows = await unassigned(api);
    expect(rows).toHaveLength(1);
    const loose = rows[0]!;
    // Its pages are rendered (the Select-company screen shows them), nothing is recognised.
    expect(loose).toMatchObject({ status: 'unassigned', company_id: null, supplierCustomerName: '', document_number: '', total: null, issue_date: null, page_count: 1 });
    const detail = (await api.get(`/receipts/${loose.receipt_id}?company_id=NONE`)).body as Detail;
    expect(detail.pages[0]!.url).toEqual(expect.any(String));
    expect(detail.content).toEqual([]);
    expect(await usedDocuments(api, companyId)).toBe(0);
    // Not exportable to an accounting system before a company is chosen.
    expect((await api.post('/receipts/export-xml?company_id=NONE', { receipt_ids: [loose.receipt_id] })).status).toBe(409);
    expect((await api.get(`/receipts/${loose.receipt_id}/export?type=xml&company_id=NONE`)).status).toBe(409);

    const refused = await api.post(`/receipts/${loose.receipt_id}/company?company_id=NONE`, { company_id: companyId });
    expect(refused.status).toBe(429);
    expect((await unassigned(api)).map((d) => d.receipt_id)).toEqual([loose.receipt_id]);
    expect(await usedDocuments(api, companyId)).toBe(0);
  });

  it('choosing a company with quota left reads the document there: processing, then its fields, one document used', async () => {
    const { api, companyId } = await registeredUser(t.stack, 'choose');
    // The company's register: its supplier is matched when the document is read there.
    const supplier = await api.post(`/stakeholder?company_id=${companyId}`, { type: 'supplier', name: SAMPLE_INVOICE.supplier, code: SAMPLE_INVOICE.supplierCode });
    expect(supplier.status).toBe(201);
    expect((await uploadDocument(api, { company_id: 'NONE', original_file_name: 'invoice.pdf' }, await invoicePdf())).request.status).toBe(200);
    await t.stack.jobs.idle(60_000);
    const loose = (await unassigned(api))[0]!;
    expect(loose).toMatchObject({ status: 'unassigned', supplierCustomerName: '', total: null });
    expect(await usedDocuments(api, companyId)).toBe(0);

    const unread = (await deps().documents.get(loose.receipt_id))!;
    const oldImage = unread.pages[0]!.image_key!;
    expect(await deps().files.head(oldImage)).toBeDefined();

    const moved = await api.post(`/receipts/${loose.receipt_id}/company?company_id=NONE`, { company_id: companyId });
    expect(moved.status).toBe(200);
    const body = moved.body as { receipt_id: string; receipt: Summary };
    expect(body.receipt).toMatchObject({ status: 'processing', company_id: companyId });
    expect(await usedDocuments(api, companyId)).toBe(1);

    const read = await waitForStatus(t, api, body.receipt_id, companyId, (s) => s !== 'processing');
    expect(['ready', 'review']).toContain(read.status);
    expect(read).toMatchObject({ supplierCustomerName: SAMPLE_INVOICE.supplier, document_number: SAMPLE_INVOICE.number, total: SAMPLE_INVOICE.total });
    expect(read.content.length).toBeGreaterThan(0);
    expect((read as Detail & { stakeholder_id: string | null }).stakeholder_id).toBe((supplier.body as { id: string }).id);
    expect(read.pages[0]!.url).toEqual(expect.any(String));
    expect(await usedDocuments(api, companyId)).toBe(1);
    // Its own page images now; those of the unassigned document are deleted, its file is kept.
    const record = (await deps().documents.get(body.receipt_id))!;
    expect(record.pages[0]!.image_key).not.toBe(oldImage);
    expect(await deps().files.head(oldImage)).toBeUndefined();
    expect(await deps().files.head(record.source!.key)).toBeDefined();
    const counts = (await api.get(`/receipts/total-documents?company_id=${companyId}`)).body as Record<'receipt', Record<string, number>>;
    expect(counts.receipt).toMatchObject({ processing: 0, unassigned: 0, [read.status]: 1 });
    const history = (await api.get(`/receipts/${body.receipt_id}/history?company_id=${companyId}`)).body as { items: { name: string }[] };
    expect(history.items.map((h) => h.name)).toEqual(['Uploaded', 'Waiting for a company: not read yet', expect.stringMatching(/^Company selected/), expect.stringMatching(/^Recognised/)]);
  });

  it('a file that is not the type its name says fails and gives its charge back, once even when its job is delivered again; Try Again charges it again', async () => {
    const { api, companyId } = await registeredUser(t.stack, 'junk');
    const bytes = new TextEncoder().encode('this is not a pdf at all, only text '.repeat(10));
    const { upload } = await uploadDocument(api, { company_id: companyId, original_file_name: 'fake.pdf' }, bytes);
    // The same object-created event twice more while the first delivery runs (SQS delivers at least once).
    const record = { eventName: 'ObjectCreated:Put', s3: { bucket: { name: 'documents' }, object: { key: upload!.key, size: bytes.length } } };
    t.stack.jobs.deliver(record);
    t.stack.jobs.deliver(record);
    await t.stack.jobs.idle(60_000);
    t.stack.jobs.deliver(record);
    await t.stack.jobs.idle(60_000);

    const items = ((await api.get(`/receipts?company_id=${companyId}`)).body as { items: Summary[] }).items;
    expect(items).toHaveLength(1);
    const failed = items[0]!;
    expect(failed).toMatchObject({ status: 'failed', can_be_restarted: true, error: { message: 'This file type is not allowed' } });
    expect(await usedDocuments(api, companyId)).toBe(0);

    // Try Again charges it again (and gives it back again when it fails the same way).
    await setAvailableDocuments(companyId, 0);
    expect((await api.post(`/receipts/${failed.receipt_id}/restart?company_id=${companyId}`, {})).status).toBe(429);
    await setAvailableDocuments(companyId, 5);
    expect((await api.post(`/receipts/${failed.receipt_id}/restart?company_id=${companyId}`, {})).status).toBe(200);
    const again = await waitForStatus(t, api, failed.receipt_id, companyId, (s) => s !== 'processing');
    expect(again).toMatchObject({ status: 'failed', error: { message: 'This file type is not allowed' } });
    expect(await usedDocuments(api, companyId)).toBe(0);
    const history = (await api.get(`/receipts/${failed.receipt_id}/history?company_id=${companyId}`)).body as { items: { name: string }[] };
    expect(history.items.filter((h) => h.name.startsWith('Processing failed')).length).toBe(2);
  });

  it('a charge wiped by the admin reset of the month is not given back again: usage stays at 0, the document fails with its message', async () => {
    const { api, companyId } = await registeredUser(t.stack, 'resetrefund');
    const q = `company_id=${companyId}`;
    await uploadDocument(api, { company_id: companyId, original_file_name: 'broken.pdf' }, new TextEncoder().encode('this is not a pdf at all, only text '.repeat(10)));
    await t.stack.jobs.idle(60_000);
    const failed = ((await api.get(`/receipts?${q}`)).body as { items: Summary[] }).items[0]!;
    expect(failed).toMatchObject({ status: 'failed', error: { message: 'This file type is not allowed' } });
    expect(await usedDocuments(api, companyId)).toBe(0);
    const source = (await deps().documents.get(failed.receipt_id))!.source!.key;

    // Try Again charges it; the platform admin resets the month after that charge, before the job reads the file.
    const get = s3Files.get;
    let resets = 0;
    s3Files.get = async (key, opts) => {
      if (key === source && resets === 0) {
        resets += 1;
        expect(await usedDocuments(api, companyId)).toBe(1);
        expect((await admin.post(`/admin/companies/${companyId}/updateAvailableDocuments?reset=1`, {})).status).toBe(200);
      }
      return get.call(s3Files, key, opts);
    };
    try {
      expect((await api.post(`/receipts/${failed.receipt_id}/restart?${q}`, {})).status).toBe(200);
      const again = await waitForStatus(t, api, failed.receipt_id, companyId, (s) => s !== 'processing');
      expect(again).toMatchObject({ status: 'failed', can_be_restarted: true, error: { message: 'This file type is not allowed' } });
    } finally {
      s3Files.get = get;
    }
    expect(resets).toBe(1);
    expect(await usedDocuments(api, companyId)).toBe(0);
    expect(await deps().documents.usage(companyId, monthOf(new Date()))).toMatchObject({ used_documents: 0, quota_taken: 0 });
    const history = async () => ((await api.get(`/receipts/${failed.receipt_id}/history?${q}`)).body as { items: { name: string }[] }).items.map((h) => h.name);
    // Given back once (the upload), not for the charge the reset already wiped.
    expect((await history()).filter((h) => h === CHARGE_RETURNED)).toHaveLength(1);
    expect((await history()).filter((h) => h.startsWith('Processing failed'))).toHaveLength(2);

    // Not counted any more, so its next Try Again is charged, and given back when it fails the same way.
    expect((await api.post(`/receipts/${failed.receipt_id}/restart?${q}`, {})).status).toBe(200);
    expect(await waitForStatus(t, api, failed.receipt_id, companyId, (s) => s !== 'processing')).toMatchObject({ status: 'failed' });
    expect(await usedDocuments(api, companyId)).toBe(0);
    expect((await history()).filter((h) => h === CHARGE_RETURNED)).toHaveLength(2);
  });

  it('a damaged PDF gives its charge back; a readable document stays charged', async () => {
    const { api, companyId } = await registeredUser(t.stack, 'damaged');
    const corrupt = Buffer.concat([Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog'), Buffer.alloc(3000, 0x41)]);
    expect((await uploadDocument(api, { company_id: companyId, original_file_name: 'damaged.pdf' }, corrupt)).request.status).toBe(200);
    expect((await uploadDocument(api, { company_id: companyId, original_file_name: 'good.pdf' }, await invoicePdf())).request.status).toBe(200);
    await t.stack.jobs.idle(60_000);
    const items = ((await api.get(`/receipts?company_id=${companyId}`)).body as { items: (Summary & { original_file_name: string })[] }).items;
    expect(items.map((d) => `${d.original_file_name}:${d.status}`).sort()).toEqual(['damaged.pdf:failed', expect.stringMatching(/^good\.pdf:(ready|review)$/)]);
    expect(items.find((d) => d.original_file_name === 'damaged.pdf')!.error).toEqual({ message: 'The PDF file is damaged and cannot be read' });
    expect(await usedDocuments(api, companyId)).toBe(1);
  });

  it('two deliveries failing the same unreadable document at the same moment give its charge back once; a charge of an earlier month stays', async () => {
    const { api, companyId } = await registeredUser(t.stack, 'twicefail');
    const d = deps();
    const now = new Date();
    const lastMonth = monthOf(new Date(now.getTime() - 40 * 24 * 3600_000));
    const seed = (id: string, month: string): DocumentRecord =>
      seededDocument({ receipt_id: id, scope: `C#${companyId}`, created_at: now.toISOString(), status: 'processing', charged_month: month, processing_run: 1 });
    const current = seed(`SEEDREFUND${Date.now()}A`, monthOf(now));
    const earlier = seed(`SEEDREFUND${Date.now()}B`, lastMonth);
    // Both charged as an upload charges them: one document of their month each.
    for (const doc of [current, earlier]) {
      const change = emptyChange();
      change.puts.push(doc);
      change.counts.push(...countMove(null, doc));
      change.usage = { companyId, month: doc.charged_month!, quota_taken: 1, used_documents: 1, reserved_documents: 0, duplicated_documents: 0 };
      await d.documents.commit(change);
    }
    expect(await usedDocuments(api, companyId)).toBe(1);

    await Promise.all([
      failDocument(d, current.receipt_id, 1, 'This file type is not allowed', { refund: true }),
      failDocument(d, current.receipt_id, 1, 'This file type is not allowed', { refund: true }),
      failDocument(d, earlier.receipt_id, 1, 'This file type is not allowed', { refund: true }),
    ]);
    expect(await usedDocuments(api, companyId)).toBe(0);
    expect((await d.documents.usage(companyId, monthOf(now))).used_documents).toBe(0);
    expect((await d.documents.usage(companyId, lastMonth)).used_documents).toBe(1);
    const [a, b] = await d.documents.getMany([current.receipt_id, earlier.receipt_id]).then((docs) => [current, earlier].map((s) => docs.find((x) => x.receipt_id === s.receipt_id)!));
    expect(a).toMatchObject({ status: 'failed', charged_month: null });
    // Charged in a month that is over: kept, so its Try Again is not charged again.
    expect(b).toMatchObject({ status: 'failed', charged_month: lastMonth });
    expect((await d.documents.history(current.receipt_id)).filter((h) => h.name === CHARGE_RETURNED)).toHaveLength(1);
    expect(await d.documents.history(earlier.receipt_id)).toHaveLength(1);
  });

  it('a PDF of too many pages to split, failed when its upload arrives, is not charged; its reservation is given back', async () => {
    const { api, companyId } = await registeredUser(t.stack, 'toolong');
    const long = await PDFDocument.create();
    for (let i = 0; i <= MAX_SPLIT_PAGES; i++) long.addPage([200, 200]);
    const bytes = await long.save();
    expect((await uploadDocument(api, { company_id: companyId, original_file_name: 'long.pdf', type: 'multiple' }, bytes)).request.status).toBe(200);
    await t.stack.jobs.idle(60_000);
    const items = ((await api.get(`/receipts?company_id=${companyId}`)).body as { items: Summary[] }).items;
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ status: 'failed', error: { message: TOO_MANY_PAGES_MESSAGE } });
    expect(await usedDocuments(api, companyId)).toBe(0);
    expect(await deps().documents.usage(companyId, monthOf(new Date()))).toMatchObject({ used_documents: 0, reserved_documents: 0, quota_taken: 0 });
  });

  it('a company chosen whose reading cannot be started leaves the document failed and charged, and its Try Again is free', async () => {
    const { api, companyId } = await registeredUser(t.stack, 'noticket');
    expect((await uploadDocument(api, { company_id: 'NONE', original_file_name: 'invoice.pdf' }, await invoicePdf())).request.status).toBe(200);
    await t.stack.jobs.idle(60_000);
    const loose = (await unassigned(api))[0]!;
    const putJson = s3Files.putJson;
    s3Files.putJson = async (key, value) => {
      if (key.startsWith('jobs/process/')) throw new Error('store unavailable');
      return putJson.call(s3Files, key, value);
    };
    let moved;
    try {
      moved = await api.post(`/receipts/${loose.receipt_id}/company?company_id=NONE`, { company_id: companyId });
    } finally {
      s3Files.putJson = putJson;
    }
    expect(moved.status).toBe(200);
    const body = moved.body as { receipt_id: string; receipt: Summary };
    expect(body.receipt).toMatchObject({ status: 'failed', can_be_restarted: true, error: { message: NOT_STARTED_MESSAGE } });
    expect(await usedDocuments(api, companyId)).toBe(1);
    await setAvailableDocuments(companyId, 1);
    expect((await api.post(`/receipts/${body.receipt_id}/restart?company_id=${companyId}`, {})).status).toBe(200);
    const read = await waitForStatus(t, api, body.receipt_id, companyId, (st) => st !== 'processing');
    expect(read).toMatchObject({ document_number: SAMPLE_INVOICE.number, total: SAMPLE_INVOICE.total });
    expect(await usedDocuments(api, companyId)).toBe(1);
  });
});
