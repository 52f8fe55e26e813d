/**
 * Files whose name does not say what their bytes are (phones and chat apps rename photos), and what a failed upload
 * of such a file leaves behind: real handlers, local stand-ins and job queue (docs/decisions.md, "Processing job").
 */
import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { s3Files } from '../../lambdas/adapters/s3/files';
import { ObjectChanged } from '../../lambdas/core/documents/ports';
import { REPLACED_MESSAGE } from '../../lambdas/core/documents/processing';
import { deps } from '../../lambdas/runtime/deps';
import { datasetPath } from '../support/datasets';
import { registeredUser, startTestStack, uploadDocument, type TestStack } from '../support/local-stack';
import { invoicePdf } from './content-fixtures';

type Summary = {
  receipt_id: string;
  status: string;
  original_file_name: string;
  duplicate_id: string | null;
  error: { message: string } | null;
  page_count: number;
  supplierCustomerName: string;
  total: string | null;
};
type Api = Awaited<ReturnType<typeof registeredUser>>['api'];

const PHOTO = datasetPath('sroie-dev', 'images', '000.jpg');

describe('uploads whose name does not say what the file is', { timeout: 180_000 }, () => {
  let t: TestStack;
  beforeAll(async () => {
    t = await startTestStack();
  });
  afterAll(async () => {
    await t?.stop();
  }, 240_000);

  async function documents(api: Api, companyId: string): Promise<Map<string, Summary>> {
    const items = ((await api.get(`/receipts?company_id=${companyId}`)).body as { items: Summary[] }).items;
    return new Map(items.map((d) => [d.original_file_name, d]));
  }
  async function upload(api: Api, companyId: string, name: string, bytes: Uint8Array, contentType: string): Promise<void> {
    const { request, put } = await uploadDocument(api, { company_id: companyId, original_file_name: name, content_type: contentType }, bytes);
    expect(request.status, name).toBe(200);
    expect(put!.status, name).toBe(200);
    await t.stack.jobs.idle(60_000);
  }
  async function duplicatedThisMonth(api: Api, companyId: string): Promise<number> {
    const items = ((await api.get('/companies')).body as { items: { company_id: string; duplicated_documents_per_month: number }[] }).items;
    return items.find((c) => c.company_id === companyId)!.duplicated_documents_per_month;
  }
  async function historyOf(api: Api, companyId: string, receiptId: string): Promise<string[]> {
    return ((await api.get(`/receipts/${receiptId}/history?company_id=${companyId}`)).body as { items: { name: string }[] }).items.map((h) => h.name);
  }
  async function duplicatesOf(api: Api, companyId: string, receiptId: string): Promise<string[]> {
    return ((await api.get(`/receipts/${receiptId}/duplicates?company_id=${companyId}`)).body as { items: { receipt_id: string }[] }).items.map((d) => d.receipt_id);
  }

  it('a file refused for its content is no copy: the same bytes uploaded again under the right name are read as in a fresh company', async () => {
    const bytes = await invoicePdf();
    // Control: the invoice in a company that never saw it.
    const fresh = await registeredUser(t.stack, 'freshco');
    await upload(fresh.api, fresh.companyId, 'invoice.pdf', bytes, 'application/pdf');
    const control = (await documents(fresh.api, fresh.companyId)).get('invoice.pdf')!;
    expect(control).toMatchObject({ status: 'ready', duplicate_id: null });

    const { api, companyId } = await registeredUser(t.stack, 'renamed');
    await upload(api, companyId, 'invoice.jpg', bytes, 'image/jpeg');
    const refused = (await documents(api, companyId)).get('invoice.jpg')!;
    expect(refused).toMatchObject({ status: 'failed', error: { message: 'This file type is not allowed' } });
    const duplicatedBefore = await duplicatedThisMonth(api, companyId);

    await upload(api, companyId, 'invoice.pdf', bytes, 'application/pdf');
    const good = (await documents(api, companyId)).get('invoice.pdf')!;
    expect(good).toMatchObject({ status: control.status, duplicate_id: null });
    expect(await duplicatesOf(api, companyId, good.receipt_id)).toEqual([]);
    expect(await historyOf(api, companyId, good.receipt_id)).toEqual(await historyOf(fresh.api, fresh.companyId, control.receipt_id));
    expect(await duplicatedThisMonth(api, companyId)).toBe(duplicatedBefore);

    // Try Again of the refused one fails the same way and still holds nothing back.
    expect((await api.post(`/receipts/${refused.receipt_id}/restart?company_id=${companyId}`, {})).status).toBe(200);
    await t.stack.jobs.idle(60_000);
    expect((await documents(api, companyId)).get('invoice.jpg')).toMatchObject({ status: 'failed', error: { message: 'This file type is not allowed' } });
    expect(await duplicatesOf(api, companyId, good.receipt_id)).toEqual([]);
  });

  it('a document whose file could not be read is a copy again once its Try Again reads it', async () => {
    const { api, companyId } = await registeredUser(t.stack, 'retried');
    const bytes = await invoicePdf();
    // The processing reads the stored file as replaced once (its second read: the first makes the document), a file
    // problem found before the recogniser: failed, its charge given back.
    const get = s3Files.get;
    let reads = 0;
    let refusals = 0;
    s3Files.get = async (key, opts) => {
      if (key.startsWith(`uploads/${companyId}/`) && ++reads === 2) {
        refusals += 1;
        throw new ObjectChanged(key);
      }
      return get.call(s3Files, key, opts);
    };
    try {
      await upload(api, companyId, 'first.pdf', bytes, 'application/pdf');
    } finally {
      s3Files.get = get;
    }
    expect(refusals).toBe(1);
    const first = (await documents(api, companyId)).get('first.pdf')!;
    expect(first).toMatchObject({ status: 'failed', error: { message: REPLACED_MESSAGE } });

    expect((await api.post(`/receipts/${first.receipt_id}/restart?company_id=${companyId}`, {})).status).toBe(200);
    await t.stack.jobs.idle(60_000);
    expect((await documents(api, companyId)).get('first.pdf')).toMatchObject({ status: 'ready' });

    await upload(api, companyId, 'again.pdf', bytes, 'application/pdf');
    const again = (await documents(api, companyId)).get('again.pdf')!;
    expect(again).toMatchObject({ status: 'review', duplicate_id: first.receipt_id });
    expect(await duplicatesOf(api, companyId, again.receipt_id)).toContain(first.receipt_id);
  });

  it('reads a PNG named .jpg and a JPEG named .png as the images they are; a PDF named .jpg is still refused', async () => {
    const { api, companyId } = await registeredUser(t.stack, 'photos');
    const jpeg = readFileSync(PHOTO);
    const png = await sharp(jpeg).png().toBuffer();
    await upload(api, companyId, 'png-named.jpg', png, 'image/jpeg');
    await upload(api, companyId, 'jpeg-named.png', jpeg, 'image/png');
    await upload(api, companyId, 'pdf-named.jpg', await invoicePdf(), 'image/jpeg');
    const docs = await documents(api, companyId);
    for (const name of ['png-named.jpg', 'jpeg-named.png']) {
      const doc = docs.get(name)!;
      expect(doc.status, name).not.toBe('failed');
      expect(doc, name).toMatchObject({ error: null, page_count: 1, supplierCustomerName: expect.stringMatching(/\S/), total: expect.any(String) });
      const detail = (await api.get(`/receipts/${doc.receipt_id}?company_id=${companyId}`)).body as { pages: { url: string | null }[] };
      expect(detail.pages[0]!.url, name).toEqual(expect.any(String));
      // Read as the image its bytes are.
      const record = (await deps().documents.get(doc.receipt_id))!;
      expect(record.pages[0]!.image_key, name).toEqual(expect.any(String));
    }
    expect(docs.get('png-named.jpg')!.supplierCustomerName).toBe(docs.get('jpeg-named.png')!.supplierCustomerName);
    expect(docs.get('pdf-named.jpg')).toMatchObject({ status: 'failed', error: { message: 'This file type is not allowed' } });
  });
});
