/**
 * POST /receipts/export-isaf: the i.SAF register of a list's selection, ids in the body (the list may send up to
 * ISAF_EXPORT_MAX, which no query string holds), answered as GET /receipts/{id}/export?type=isaf answers one document;
 * another company's member gets nothing of them.
 */
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { s3 } from '../../lambdas/adapters/s3/files';
import { buildContentFromExtraction } from '../../lambdas/core/content/build';
import { toStored } from '../../lambdas/core/content/service';
import type { ExtractedFields, FieldValue } from '../../lambdas/core/recognition/types';
import { ISAF_EXPORT_MAX, type ExportFile } from '../../shared/schemas/content';
import { seededDocument, writeDocuments } from '../support/document-records';
import { apiClient, registeredUser, startTestStack, type TestStack } from '../support/local-stack';

type User = Awaited<ReturnType<typeof registeredUser>>;
type Invoice = { InvoiceNo: string; InvoiceDate: string; DocumentTotals: { DocumentTotal: { TaxCode: string; TaxableValue: string; Amount: string }[] } };

const MISSING = '01MISSINGDOCUMENT000000000';
/** As many as one file takes: the list's Select all sends that many ids in one call. */
const COUNT = ISAF_EXPORT_MAX;

/** A read cost of 21 % VAT: number INV-<n>, dated in January 2025. */
function costContent(n: number) {
  const fv = (value: string): FieldValue => ({ value, page: 1, box: { left: 0.1, top: 0.1, width: 0.1, height: 0.02 }, confidence: 99 });
  const base = (n + 10).toFixed(2);
  const tax = ((n + 10) * 0.21).toFixed(2);
  const fields: ExtractedFields = {
    supplier_name: fv(`Supplier ${n} UAB`),
    supplier_code: fv(String(300000000 + n)),
    document_id: fv(`INV-${n}`),
    issue_date: fv(`2025-01-${String((n % 28) + 1).padStart(2, '0')}`),
    currency: fv('EUR'),
    amount_total_base: fv(base),
    amount_tax: fv(tax),
    amount_total: fv((Number(base) + Number(tax)).toFixed(2)),
    vat_lines: [],
    line_items: [],
  };
  return toStored(buildContentFromExtraction(fields, { pageDocuments: ['scan.pdf'] }));
}

/** `count` read costs of the user's company, written straight to the table and the documents bucket. */
async function seedCosts(user: User, prefix: string, count: number): Promise<string[]> {
  const ids = Array.from({ length: count }, (_, i) => `01${prefix}${String(i).padStart(24 - prefix.length, '0')}`);
  const docs = await Promise.all(
    ids.map(async (id, i) => {
      const contentKey = `content/${user.companyId}/${id}/content.json`;
      await s3().send(new PutObjectCommand({ Bucket: process.env.DOCUMENTS_BUCKET, Key: contentKey, Body: JSON.stringify(costContent(i)), ContentType: 'application/json' }));
      return seededDocument({ receipt_id: id, scope: `C#${user.companyId}`, created_at: new Date(Date.UTC(2025, 1, 1, 0, i)).toISOString(), status: 'ready', content_key: contentKey, document_number: `INV-${i}` });
    }),
  );
  await writeDocuments(docs);
  return ids;
}

const invoicesOf = (file: ExportFile): Invoice[] => {
  const xml = Buffer.from(file.base64, 'base64').toString('utf8');
  const parsed = new XMLParser({ ignoreAttributes: false, parseTagValue: false, isArray: (n) => ['Invoice', 'DocumentTotal'].includes(n) }).parse(xml);
  return parsed.iSAFFile.SourceDocuments.PurchaseInvoices.Invoice as Invoice[];
};

describe('POST /receipts/export-isaf', () => {
  let t: TestStack;
  let owner: User;
  let intruder: User;
  let ids: string[];
  const exportIsaf = (user: User, q: string, receiptIds: unknown) => user.api.post(`/receipts/export-isaf?${q}`, { receipt_ids: receiptIds });

  beforeAll(async () => {
    t = await startTestStack();
    owner = await registeredUser(t.stack, 'isaf');
    intruder = await registeredUser(t.stack, 'intruder');
    ids = await seedCosts(owner, 'ISAF', COUNT);
  }, 120_000);
  afterAll(async () => {
    await t?.stop();
  });

  it(`exports ${COUNT} documents as one i.SAF file, in the order asked, the same file the GET gives for one`, async () => {
    // Their ids do not fit a query string: the GET refuses them.
    const [first, ...others] = ids;
    const byGet = await owner.api.get(`/receipts/${first}/export?company_id=${owner.companyId}&type=isaf&receipt_ids=${others.join(',')}`);
    expect(byGet.status).toBe(400);

    const asked = [...ids].reverse();
    const res = await exportIsaf(owner, `company_id=${owner.companyId}&registration_number=304112299`, asked);
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
    const file = res.body as ExportFile;
    expect(file).toMatchObject({ mime: 'application/xml', name: expect.stringMatching(/^isaf-\d{4}-\d{2}-\d{2}\.xml$/) });
    const xml = Buffer.from(file.base64, 'base64').toString('utf8');
    expect(xml).toContain('<RegistrationNumber>304112299</RegistrationNumber>');
    const invoices = invoicesOf(file);
    expect(invoices.map((i) => i.InvoiceNo)).toEqual(asked.map((id) => `INV-${ids.indexOf(id)}`));
    expect(invoices[0]!.DocumentTotals.DocumentTotal).toEqual([expect.objectContaining({ TaxCode: 'PVM1', TaxableValue: `${COUNT - 1 + 10}.00` })]);

    // One document: the same file as the GET's (the time of the file aside).
    const single = (await exportIsaf(owner, `company_id=${owner.companyId}`, [first])).body as ExportFile;
    const get = (await owner.api.get(`/receipts/${first}/export?company_id=${owner.companyId}&type=isaf`)).body as ExportFile;
    const withoutTime = (f: ExportFile) => Buffer.from(f.base64, 'base64').toString('utf8').replace(/<FileDateCreated>[^<]*<\/FileDateCreated>/, '');
    expect(single.name).toBe(get.name);
    expect(withoutTime(single)).toBe(withoutTime(get));
  }, 120_000);

  it(`takes up to ${ISAF_EXPORT_MAX} ids; refuses more, none, and malformed ones with 422`, async () => {
    const q = `company_id=${owner.companyId}`;
    const tooMany = Array.from({ length: ISAF_EXPORT_MAX + 1 }, (_, i) => `01ID${String(i).padStart(22, '0')}`);
    for (const [what, body, status] of [
      ['too many ids', tooMany, 422],
      ['no ids', [], 422],
      ['ids not a list', ids[0], 422],
      ['an empty id', [ids[0], ' '], 422],
      ['an id too long', ['X'.repeat(65)], 422],
    ] as const) {
      const res = await exportIsaf(owner, q, body);
      expect(res.status, what).toBe(status);
      expect(res.body, what).toMatchObject({ statusCode: status, error: 'ValidationFailed' });
    }
    expect(((await exportIsaf(owner, q, tooMany)).body as { details: unknown }).details).toEqual([{ path: ['receipt_ids'], message: `At most ${ISAF_EXPORT_MAX} documents` }]);
    const longRegistration = await exportIsaf(owner, `${q}&registration_number=${'1'.repeat(21)}`, [ids[0]]);
    expect(longRegistration.status).toBe(422);
  });

  it("gives another company's member nothing: 403 in that company, 404 in their own as for a missing id; not signed in 401", async () => {
    const mine = await seedCosts(intruder, 'MINE', 1);
    const own = `company_id=${intruder.companyId}`;
    const missing = await exportIsaf(intruder, own, [MISSING]);
    expect(missing.status).toBe(404);
    for (const asked of [[ids[0]], [mine[0], ids[1]], [ids[2], mine[0]]]) {
      const res = await exportIsaf(intruder, own, asked);
      expect(res.status, asked.join()).toBe(404);
      expect(res.body).toEqual(missing.body);
    }
    for (const asked of [[ids[0]], [MISSING]]) {
      const res = await exportIsaf(intruder, `company_id=${owner.companyId}`, asked);
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ statusCode: 403, error: 'Forbidden', message: 'You are not a member of this company' });
    }
    const noneScope = await exportIsaf(intruder, 'company_id=NONE', [ids[0]]);
    expect(noneScope.status).toBe(404);
    expect((await apiClient(t.stack.apiUrl).post(`/receipts/export-isaf?company_id=${owner.companyId}`, { receipt_ids: [ids[0]] })).status).toBe(401);
    // The intruder's own document exports.
    expect((await exportIsaf(intruder, own, mine)).status).toBe(200);
  });
});
