/**
 * Learning from corrections through the whole product, against the local stand-ins: a cost document is
 * uploaded through the API and processed by the real job (local recogniser), its wrongly read fields are
 * corrected through the content endpoint and it is confirmed (POST /receipt/{id}?with_send=1); the next
 * document of the same supplier layout then comes out right — in that company only. Deleting the confirmed
 * document forgets what it taught; so does confirming it again under another supplier.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ddbSupplierLayouts } from '../../lambdas/adapters/ddb/layout-store';
import { supplierKeys } from '../../lambdas/core/recognition/layout-keys';
import type { ContentResponse } from '../../shared/schemas/content';
import { LAYOUT_DOCS, LAYOUT_SUPPLIER } from '../fixtures/recognition/data';
import { registeredUser, startTestStack, type TestStack } from '../support/local-stack';
import { uploadDocument } from './content-fixtures';
import { findContentItem } from '../support/content-items';

type User = Awaited<ReturnType<typeof registeredUser>>;

const [doc1, doc2] = LAYOUT_DOCS as [(typeof LAYOUT_DOCS)[0], (typeof LAYOUT_DOCS)[0]];
const fixture = (file: string) => new Uint8Array(readFileSync(path.join(import.meta.dirname, '../fixtures/recognition', file)));

const valueOf = (res: ContentResponse, id: string) => findContentItem(res.content, id)?.content?.value;
const fieldsOf = (res: ContentResponse) =>
  Object.fromEntries(['supplier_name', 'supplier_vat_id', 'document_id', 'issue_date', 'amount_total'].map((id) => [id, valueOf(res, id)]));

async function contentOf(u: User, receiptId: string): Promise<ContentResponse> {
  const res = await u.api.get(`/receipts/${receiptId}/content?company_id=${u.companyId}`);
  expect(res.status).toBe(200);
  return res.body as ContentResponse;
}

describe('learning a supplier layout from a confirmed document (whole product)', () => {
  let t: TestStack;
  beforeAll(async () => {
    t = await startTestStack();
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('after one corrected and confirmed document, the next one of the supplier reads right; another company still reads it wrong', { timeout: 180_000 }, async () => {
    const a = await registeredUser(t.stack, 'learner');
    const b = await registeredUser(t.stack, 'stranger');
    const keys = supplierKeys({ vat_id: LAYOUT_SUPPLIER.vatId, name: LAYOUT_SUPPLIER.name });

    // 1. The first document, as the plain extractor reads it: the order number and a day-first date.
    const first = await uploadDocument(t.stack, a.api, a.companyId, fixture(doc1.file), doc1.file);
    let c = await contentOf(a, first);
    expect(fieldsOf(c)).toEqual({
      supplier_name: LAYOUT_SUPPLIER.name,
      supplier_vat_id: LAYOUT_SUPPLIER.vatId,
      document_id: doc1.orderNo,
      issue_date: '2024-04-03',
      amount_total: doc1.total.toFixed(2),
    });

    // 2. The person corrects the number and the date through the content endpoint and confirms.
    const saved = await a.api.put(`/receipts/${first}/content?company_id=${a.companyId}`, {
      version: c.version,
      items: [
        { id: 'document_id', value: doc1.ref },
        { id: 'issue_date', value: doc1.issueDate },
      ],
    });
    expect(saved.status).toBe(200);
    c = saved.body as ContentResponse;
    expect(await ddbSupplierLayouts.find(a.companyId, keys)).toEqual([]);
    const confirmed = await a.api.post(`/receipt/${first}?company_id=${a.companyId}&with_send=1`, { version: c.version });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toMatchObject({ receipt: { status: 'archive' }, content: { read_only: true } });

    // The layout is stored for company A under the supplier's VAT ID and name, and for no one else.
    const stored = await ddbSupplierLayouts.find(a.companyId, keys);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ source_receipt_id: first, hint: { supplier: { name: LAYOUT_SUPPLIER.name, vat_id: LAYOUT_SUPPLIER.vatId }, dateFormat: 'MM/DD/YYYY' } });
    expect(stored[0]!.hint.fields.find((f) => f.field === 'document_id')?.labelWords).toEqual(['our', 'ref']);
    expect(await ddbSupplierLayouts.find(b.companyId, keys)).toEqual([]);

    // 3. The supplier's next document in company A: number, date, total and supplier come out right.
    const second = await uploadDocument(t.stack, a.api, a.companyId, fixture(doc2.file), doc2.file);
    expect(fieldsOf(await contentOf(a, second))).toEqual({
      supplier_name: LAYOUT_SUPPLIER.name,
      supplier_vat_id: LAYOUT_SUPPLIER.vatId,
      document_id: doc2.ref,
      issue_date: doc2.issueDate,
      amount_total: doc2.total.toFixed(2),
    });
    const row = (await a.api.get(`/receipts/${second}?company_id=${a.companyId}`)).body as { document_number: string; issue_date: string };
    expect(row).toMatchObject({ document_number: doc2.ref, issue_date: doc2.issueDate });

    // 4. The same file in company B, which confirmed nothing: the plain extractor's wrong reading.
    const elsewhere = await uploadDocument(t.stack, b.api, b.companyId, fixture(doc2.file), doc2.file);
    const other = fieldsOf(await contentOf(b, elsewhere));
    expect(other).toMatchObject({ supplier_vat_id: LAYOUT_SUPPLIER.vatId, document_id: doc2.orderNo, amount_total: doc2.total.toFixed(2) });
    expect(other.issue_date).not.toBe(doc2.issueDate);

    // 5. The first document is taken back to review, given another supplier and confirmed again: what it taught
    //    under the first supplier is forgotten (C7), and it teaches the new one.
    const reopened = await a.api.post(`/receipt/${first}/status?company_id=${a.companyId}`, { status: 'review' });
    expect(reopened.status).toBe(200);
    c = await contentOf(a, first);
    const renamed = await a.api.put(`/receipts/${first}/content?company_id=${a.companyId}`, {
      version: c.version,
      items: [
        { id: 'supplier_name', value: 'Trecias UAB' },
        { id: 'supplier_vat_id', value: '' },
      ],
    });
    expect(renamed.status).toBe(200);
    const again = await a.api.post(`/receipt/${first}?company_id=${a.companyId}&with_send=1`, { version: (renamed.body as ContentResponse).version });
    expect(again.status).toBe(200);
    expect(await ddbSupplierLayouts.find(a.companyId, supplierKeys({ ...stored[0]!.hint.supplier }))).toEqual([]);
    const moved = supplierKeys({ name: 'Trecias UAB' });
    expect((await ddbSupplierLayouts.find(a.companyId, moved)).map((l) => l.source_receipt_id)).toEqual([first]);

    // 6. The first document is deleted: what it taught is forgotten, under every key (DELETE /receipt/{id}).
    expect((await a.api.delete(`/receipt/${first}?company_id=${a.companyId}`)).status).toBe(200);
    expect(await ddbSupplierLayouts.find(a.companyId, moved)).toEqual([]);
    expect(await ddbSupplierLayouts.taughtBy(a.companyId, first)).toEqual([]);
  });

  it('the table keeps one layout per supplier key of a company: a later confirm replaces it, other companies see none', async () => {
    const hint = (ref: string) => ({ supplier: { vat_id: 'LT100001919017', name: 'Kita UAB' }, fields: [{ field: 'document_id' as const, page: 1, box: { left: 0.6, top: 0.1, width: 0.1, height: 0.01 }, labelWords: [ref], kind: 'code' as const }] });
    const keys = supplierKeys({ vat_id: 'LT100001919017', name: 'Kita UAB' });
    const first = { hint: hint('first'), source_receipt_id: 'r1', learned_at: '2026-01-01T00:00:00.000Z', learned_by: 'u1' };
    const second = { hint: hint('second'), source_receipt_id: 'r2', learned_at: '2026-02-01T00:00:00.000Z', learned_by: 'u1' };
    await ddbSupplierLayouts.put('company-x', keys, first);
    expect(await ddbSupplierLayouts.find('company-x', [{ kind: 'NAME', value: 'KITA' }])).toEqual([first]);
    const byKey = (list: { kind: string; value: string }[]) => [...list].sort((a, b) => `${a.kind}#${a.value}`.localeCompare(`${b.kind}#${b.value}`));
    expect(byKey(await ddbSupplierLayouts.taughtBy('company-x', 'r1'))).toEqual(byKey(keys));
    await ddbSupplierLayouts.put('company-x', keys, second);
    expect(await ddbSupplierLayouts.find('company-x', keys)).toEqual([second]);
    expect(await ddbSupplierLayouts.find('company-y', keys)).toEqual([]);
    // C7: the keys a document's layout is held under, by the document; replaced keys are the later one's.
    expect(await ddbSupplierLayouts.taughtBy('company-x', 'r1')).toEqual([]);
    expect(byKey(await ddbSupplierLayouts.taughtBy('company-x', 'r2'))).toEqual(byKey(keys));
    expect(await ddbSupplierLayouts.taughtBy('company-y', 'r2')).toEqual([]);
    // Forgetting the first document's layout leaves the second's; forgetting the second's empties every key.
    expect(await ddbSupplierLayouts.forget('company-x', keys, 'r1')).toBe(0);
    expect(await ddbSupplierLayouts.find('company-x', keys)).toEqual([second]);
    await ddbSupplierLayouts.put('company-y', keys, second);
    expect(await ddbSupplierLayouts.forget('company-x', keys, 'r2')).toBe(keys.length);
    expect(await ddbSupplierLayouts.find('company-x', keys)).toEqual([]);
    expect(await ddbSupplierLayouts.find('company-y', keys)).toEqual([second]);
  });

  it('confirming a sales invoice learns nothing (its issuer is the company itself)', { timeout: 120_000 }, async () => {
    const u = await registeredUser(t.stack, 'seller');
    const id = await uploadDocument(t.stack, u.api, u.companyId, fixture(doc1.file), doc1.file, 'invoice');
    const c = await contentOf(u, id);
    const ok = await u.api.post(`/receipt/${id}?company_id=${u.companyId}&with_send=1`, {
      version: c.version,
      items: [
        { id: 'document_id', value: doc1.ref },
        { id: 'issue_date', value: doc1.issueDate },
        { id: 'customer_name', value: 'Baltic Bytes UAB' },
      ],
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ receipt: { status: 'archive' } });
    expect(await ddbSupplierLayouts.find(u.companyId, supplierKeys({ vat_id: LAYOUT_SUPPLIER.vatId, name: LAYOUT_SUPPLIER.name }))).toEqual([]);
  });
});
