/**
 * Deleting a company: DELETE /company → purge queue → purge job (real handlers, local stand-ins). Everything the
 * deleted company owned leaves the table and the bucket; the user's other company keeps its documents and master data.
 */
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import MailComposer from 'nodemailer/lib/mail-composer';
import nodemailer from 'nodemailer';
import { textPdf } from '../support/text-pdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ddbIntegrationStore } from '../../lambdas/adapters/ddb/integrations-store';
import { s3 } from '../../lambdas/adapters/s3/files';
import { registeredUser, startTestStack, uploadDocument, wholeTable, type TestStack } from '../support/local-stack';

type Api = Awaited<ReturnType<typeof registeredUser>>['api'];
type Summary = { receipt_id: string; status: string; version: number; original_file_name: string; email_id: string | null };
type Detail = Summary & { pages: { url: string | null }[] };

const allItems = wholeTable;

async function allObjectKeys(): Promise<string[]> {
  const out: string[] = [];
  let token: string | undefined;
  do {
    const res = await s3().send(new ListObjectsV2Command({ Bucket: process.env.DOCUMENTS_BUCKET, ContinuationToken: token }));
    out.push(...(res.Contents ?? []).map((o) => o.Key!));
    token = res.IsTruncated ? res.NextContinuationToken : undefined;
  } while (token);
  return out;
}

describe('deleting a company purges everything it owned', () => {
  let t: TestStack;
  const reservation = process.env.UPLOAD_RESERVATION_MINUTES;
  beforeAll(async () => {
    // The purge removes the company's upload objects once a pending upload's file can no longer arrive (its
    // reservation's end): one minute here instead of twenty. A queue delay second lasts 100 ms.
    process.env.UPLOAD_RESERVATION_MINUTES = '1';
    t = await startTestStack({ purgeMsPerDelaySecond: 100 });
  });
  afterAll(async () => {
    await t?.stop();
    if (reservation === undefined) delete process.env.UPLOAD_RESERVATION_MINUTES;
    else process.env.UPLOAD_RESERVATION_MINUTES = reservation;
  });

  async function processed(api: Api, companyId: string, name: string, lines: string[]): Promise<Summary> {
    const { request } = await uploadDocument(api, { company_id: companyId, original_file_name: name }, await textPdf(lines));
    expect(request.status).toBe(200);
    await t.stack.jobs.idle();
    return documentNamed(api, companyId, name);
  }
  async function documents(api: Api, companyId: string): Promise<Summary[]> {
    const res = await api.get(`/receipts?company_id=${companyId}`);
    expect(res.status).toBe(200);
    return (res.body as { items: Summary[] }).items;
  }
  async function documentNamed(api: Api, companyId: string, name: string): Promise<Summary> {
    const doc = (await documents(api, companyId)).find((d) => d.original_file_name === name);
    expect(doc, name).toBeDefined();
    return doc!;
  }
  /** A supplier, a category and an item: each with its search words, guards, look-ups and item words. */
  async function masterData(api: Api, companyId: string, tag: string) {
    const q = `?company_id=${companyId}`;
    expect((await api.post(`/stakeholder${q}`, { type: 'supplier', name: `${tag} Trade UAB`, code: `${tag}-1`, vat_id: 'LT100001' })).status).toBe(201);
    expect((await api.post(`/stakeholder${q}`, { type: 'customer', name: `${tag} Buyer UAB`, code: `${tag}-2` })).status).toBe(201);
    expect((await api.post(`/category${q}`, { name: `${tag} Fuel`, category_code: `${tag}F` })).status).toBe(201);
    expect((await api.post(`/item${q}`, { name: `${tag} Coffee Beans`, words: ['coffee', 'kava'] })).status).toBe(201);
  }

  it('leaves no item mentioning the company and no object of its documents; the other company is intact', async () => {
    const { api, companyId: kept } = await registeredUser(t.stack, 'purger');
    const created = await api.post('/company', { company_name: 'Gone UAB', code: '555000' });
    expect(created.status).toBe(201);
    const gone = (created.body as { company_id: string; email: string }).company_id;
    const goneAddress = (created.body as { email: string }).email;

    // The company to delete: two processed documents (one archived and exported), one from email-in, master data,
    // an invitation, its Fields configuration, a pending upload whose file never came.
    const a = await processed(api, gone, 'gone-a.pdf', ['ALPHA UAB', 'Invoice No. G-1', 'Total 10.00 EUR']);
    const b = await processed(api, gone, 'gone-b.pdf', ['BETA UAB', 'Invoice No. G-2', 'Total 20.00 EUR']);
    const archived = await api.post(`/receipt/${a.receipt_id}/status?company_id=${gone}`, { status: 'archive', version: a.version });
    expect(archived.status).toBe(200);
    await ddbIntegrationStore.putExportMarker({ receipt_id: a.receipt_id, target: 'ftp_export', state: 'done', exported_at: new Date().toISOString(), content_key: null, reference: '/gone/a.xml' });
    const transport = nodemailer.createTransport({ host: t.stack.smtp.host, port: t.stack.smtp.port, secure: false, ignoreTLS: true });
    const raw = await new MailComposer({
      from: 'billing@supplier.example',
      to: goneAddress,
      subject: 'Invoice',
      text: 'Attached',
      attachments: [{ filename: 'mailed.pdf', content: Buffer.from(await textPdf(['MAIL UAB', 'Total 3.00 EUR'])), contentType: 'application/pdf' }],
    })
      .compile()
      .build();
    await transport.sendMail({ envelope: { from: 'billing@supplier.example', to: [goneAddress] }, raw });
    await t.stack.emailJobs.idle();
    await t.stack.jobs.idle();
    const mailed = await documentNamed(api, gone, 'mailed.pdf');
    expect(mailed.email_id).toBeTruthy();
    await masterData(api, gone, 'Gone');
    const invited = await api.post(`/invitation?company_id=${gone}`, { name: 'Ona', surname: 'Onaitė', email: 'ona.gone@example.com', role: 'basic' });
    expect(invited.status).toBe(201);
    expect((await api.put(`/schemas?company_id=${gone}`, { datapoints: [{ id: 'iban', hidden: true }] })).status).toBe(200);
    const lateBytes = await textPdf(['LATE UAB', 'Total 1.00 EUR']);
    const pending = await api.get(`/upload/document?company_id=${gone}&original_file_name=late.pdf&size=${lateBytes.length}`);
    expect(pending.status).toBe(200);
    const late = pending.body as { uploadURL: string; headers: Record<string, string>; key: string };

    // The company that stays: its own document and master data.
    const keptDoc = await processed(api, kept, 'kept.pdf', ['KEPT UAB', 'Invoice No. K-1', 'Total 5.00 EUR']);
    await masterData(api, kept, 'Kept');

    const goneDocs = [a, b, mailed].map((d) => d.receipt_id);
    const mentions = (items: Record<string, unknown>[], id: string) => items.filter((i) => JSON.stringify(i).includes(id));
    const before = await allItems();
    // What the purge is about: every kind of item the company owned is there before the delete.
    const kinds = (prefix: string) => mentions(before, gone).some((i) => String(i.pk).startsWith(prefix));
    for (const prefix of ['DOC#', 'DOCQ#', 'DOCMARK#', 'EMAIL#', 'MD#', 'MDS#', 'MDU#', 'MDF#', 'MDW#', 'COMPANY#', 'INVITATION#', 'UPLOAD#']) {
      expect(kinds(prefix), prefix).toBe(true);
    }
    expect(before.some((i) => String(i.pk) === `DOC#${a.receipt_id}` && String(i.sk).startsWith('EXPORT#'))).toBe(true);
    const objectsBefore = await allObjectKeys();
    for (const id of goneDocs) expect(objectsBefore.some((k) => k.startsWith(`documents/${id}/`)), id).toBe(true);
    expect(objectsBefore.some((k) => k.startsWith(`uploads/${gone}/`))).toBe(true);

    // Act
    const deleted = await api.delete(`/company?company_id=${gone}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ deleted: true, company_id: gone });
    // The pending upload's file arrives after the delete: its upload is gone, so it makes no document.
    const put = await fetch(late.uploadURL, { method: 'PUT', headers: late.headers, body: new Blob([new Uint8Array(lateBytes)]) });
    expect(put.status).toBe(200);
    await t.stack.jobs.idle();
    await t.stack.purgeJobs.idle(180_000);
    expect(t.stack.purgeJobs.deadLetters).toHaveLength(0);

    // Assess: nothing of the deleted company is left in the table …
    const after = await allItems();
    expect(mentions(after, gone)).toEqual([]);
    for (const id of goneDocs) expect(mentions(after, id)).toEqual([]);
    // … nor in the bucket.
    const objectsAfter = await allObjectKeys();
    expect(objectsAfter.filter((k) => k.includes(gone) || goneDocs.some((id) => k.includes(id)))).toEqual([]);

    // The other company keeps its documents (with their files) and master data.
    const keptAfter = await documents(api, kept);
    expect(keptAfter.map((d) => d.receipt_id)).toEqual([keptDoc.receipt_id]);
    const detail = (await api.get(`/receipts/${keptDoc.receipt_id}?company_id=${kept}`)).body as Detail;
    expect(detail.pages[0]!.url).toBeTruthy();
    expect((await fetch(detail.pages[0]!.url!)).status).toBe(200);
    expect(objectsAfter.some((k) => k.startsWith(`documents/${keptDoc.receipt_id}/`))).toBe(true);
    const q = `?company_id=${kept}`;
    const suppliers = (await api.get(`/stakeholders${q}&type=supplier`)).body as { items: { name: string }[] };
    expect(suppliers.items.map((s) => s.name)).toEqual(['Kept Trade UAB']);
    const categories = (await api.get(`/categories${q}`)).body as { items: { name: string }[] };
    expect(categories.items.map((c) => c.name)).toEqual(['Kept Fuel']);
    const items = (await api.get(`/items${q}`)).body as { items: { name: string }[] };
    expect(items.items.map((i) => i.name)).toEqual(['Kept Coffee Beans']);
    const search = (await api.get(`/stakeholders${q}&type=supplier&search_name=trade`)).body as { items: { name: string }[] };
    expect(search.items.map((s) => s.name)).toEqual(['Kept Trade UAB']);
    expect(mentions(after, kept).some((i) => String(i.pk).startsWith('MDU#'))).toBe(true);
    // The user keeps their account and the other company.
    const companies = (await api.get('/companies')).body as { items: { company_id: string }[] };
    expect(companies.items.map((c) => c.company_id)).toEqual([kept]);

    // A redelivered purge message finds nothing left and does no harm.
    t.stack.purgeJobs.send(JSON.stringify({ company_id: gone, step: 'uploads', cursor: null, deferred: 0, files_after: null, requested_at: '' }));
    await t.stack.purgeJobs.idle(60_000);
    expect(t.stack.purgeJobs.deadLetters).toHaveLength(0);
    expect(mentions(await allItems(), kept).length).toBe(mentions(after, kept).length);
  }, 300_000);
});
