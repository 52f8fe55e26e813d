/**
 * POST /receipts/details: the full documents of up to 100 ids of one company in one call (the export pop-up's CSV and
 * PDF), each as GET /receipts/{id} gives it (content included); another company's document is not found per id.
 */
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentItemsWithIndex } from '../../lambdas/adapters/ddb/documents-store';
import { batchWrite } from '../../lambdas/adapters/ddb/table-ops';
import { s3 } from '../../lambdas/adapters/s3/files';
import { buildContentFromExtraction } from '../../lambdas/core/content/build';
import { toStored } from '../../lambdas/core/content/service';
import { HEADER_FIELD_IDS, type ExtractedFields, type FieldValue } from '../../lambdas/core/recognition/types';
import { DOCUMENT_ID_MAX } from '../../shared/constants';
import { LINE_ITEM_COLUMNS, type ContentItem } from '../../shared/schemas/content';
import { DETAILS_BYTES_MAX, DETAILS_MAX } from '../../shared/schemas/receipts';
import { seededDocument } from '../support/document-records';
import { addMembership, apiClient, registeredUser, startTestStack, subOf, uploadDocument as upload, type ApiResponse, type TestStack } from '../support/local-stack';
import { invoicePdf, SAMPLE_INVOICE, uploadDocument } from './content-fixtures';

type Detail = { receipt_id: string; company_id: string | null; content: ContentItem[]; pages: { url: string | null }[]; history?: unknown; original_file_name: string };
type Details = { items: Detail[]; not_found: string[]; remaining: string[] };

async function pdf(text: string): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage().drawText(text, { x: 50, y: 700, size: 14, font });
  return doc.save();
}

const MISSING = '01MISSINGDOCUMENT000000000';
/** Every value of a content tree. */
const values = (items: ContentItem[]): string[] => items.flatMap((i) => [...(i.content?.value ? [String(i.content.value)] : []), ...values(i.children)]);

/** A recognised document with `lines` line items (values as varied as a real one's): about 4.4 KB of JSON a line. */
function longContent(lines: number, seed: string) {
  let n = 0;
  const fv = (value: string): FieldValue => {
    n += 1;
    return { value, page: 1, box: { left: ((n * 37) % 997) / 1000, top: ((n * 53) % 991) / 1000, width: ((n * 7) % 97) / 1000, height: ((n * 3) % 13) / 1000 }, confidence: 90 + (n % 10) };
  };
  const fields: ExtractedFields = { vat_lines: [], line_items: [] };
  for (const id of HEADER_FIELD_IDS) fields[id] = fv(`${id} ${seed}`);
  for (let l = 0; l < lines; l++) {
    fields.line_items.push(Object.fromEntries(LINE_ITEM_COLUMNS.map((c) => [c, fv(c === 'description' ? `Prekė ${seed}-${l} ${(l * 7919) % 10007}` : ((l * 1.37) % 997).toFixed(2))])));
  }
  return toStored(buildContentFromExtraction(fields, { pageDocuments: ['long.pdf'] }));
}

describe('POST /receipts/details', () => {
  let t: TestStack;
  let owner: Awaited<ReturnType<typeof registeredUser>>;
  let intruder: Awaited<ReturnType<typeof registeredUser>>;
  let invoice: string;
  let secret: string;
  let loose: string;
  const details = (api: ReturnType<typeof apiClient>, q: string, ids: unknown) => api.post(`/receipts/details?${q}`, { receipt_ids: ids });

  beforeAll(async () => {
    t = await startTestStack();
    owner = await registeredUser(t.stack, 'details');
    intruder = await registeredUser(t.stack, 'intruder');
    invoice = await uploadDocument(t.stack, owner.api, owner.companyId, await invoicePdf(), 'invoice.pdf');
    secret = await uploadDocument(t.stack, owner.api, owner.companyId, await pdf('SECRET UAB Total 99.00'), 'secret.pdf');
    await upload(owner.api, { company_id: 'NONE', original_file_name: 'loose.pdf' }, await pdf('LOOSE UAB Total 1.00'));
    await t.stack.jobs.idle(60_000);
    loose = ((await owner.api.get('/receipts?company_id=NONE&receipt_status=unassigned')).body as { items: { receipt_id: string }[] }).items[0]!.receipt_id;
  }, 120_000);
  afterAll(async () => {
    await t?.stop();
  });

  it('answers the documents in the order asked, each as GET /receipts/{id} gives it with its content', async () => {
    const q = `company_id=${owner.companyId}`;
    const res = await details(owner.api, q, [secret, invoice, secret]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const body = res.body as Details;
    expect(body.items.map((d) => d.receipt_id)).toEqual([secret, invoice]);
    expect(body.not_found).toEqual([]);
    expect(body.remaining).toEqual([]);
    for (const item of body.items) {
      const single = (await owner.api.get(`/receipts/${item.receipt_id}?${q}`)).body as Detail;
      // The same document, less its history (GET /receipts/{id}/history) and the page images' links (GET /receipts/{id}).
      const { history: _history, pages, ...rest } = single;
      expect(item).toEqual({ ...rest, pages: pages.map((p) => ({ ...p, url: null })) });
    }
    const content = values(body.items[1]!.content);
    expect(content).toEqual(expect.arrayContaining([SAMPLE_INVOICE.number, SAMPLE_INVOICE.total, SAMPLE_INVOICE.supplier]));
    expect(content.some((v) => v.includes('Stapler'))).toBe(true);
  });

  it('gives a basic member the same as the admin', async () => {
    const member = await registeredUser(t.stack, 'basic');
    await addMembership(subOf(member.token), owner.companyId, 'basic');
    const q = `company_id=${owner.companyId}`;
    const asMember = await details(member.api, q, [invoice, secret]);
    expect(asMember.status).toBe(200);
    expect(asMember.body).toEqual((await details(owner.api, q, [invoice, secret])).body);
  });

  it('gives the caller their own unassigned documents with company_id NONE, not the company ones there', async () => {
    const own = (await details(owner.api, 'company_id=NONE', [loose, invoice])).body as Details;
    expect(own.items.map((d) => [d.receipt_id, d.company_id])).toEqual([[loose, null]]);
    expect(own.not_found).toEqual([invoice]);
    const single = (await owner.api.get(`/receipts/${loose}?company_id=NONE`)).body as Detail;
    expect(own.items[0]!.original_file_name).toBe(single.original_file_name);
  });

  it('gives a member of another company nothing of them: the same answer as for ids that do not exist', async () => {
    const mine = await uploadDocument(t.stack, intruder.api, intruder.companyId, await pdf('MINE UAB Total 2.00'), 'mine.pdf');
    for (const q of [`company_id=${intruder.companyId}`, 'company_id=NONE']) {
      const theirs = await details(intruder.api, q, [secret, invoice, loose]);
      const missing = await details(intruder.api, q, ['01MISSING000000000000000001', '01MISSING000000000000000002', '01MISSING000000000000000003']);
      expect(theirs.status, q).toBe(200);
      expect(missing.status, q).toBe(200);
      expect(theirs.body, q).toEqual({ items: [], not_found: [secret, invoice, loose], remaining: [] });
      expect((missing.body as Details).items).toEqual([]);
      expect(JSON.stringify(theirs.body)).not.toMatch(/SECRET|LOOSE|secret\.pdf|loose\.pdf|invoice\.pdf|Popierius/);
    }
    // Their own document next to the other company's: theirs only.
    const mixed = (await details(intruder.api, `company_id=${intruder.companyId}`, [secret, mine, MISSING])).body as Details;
    expect(mixed.items.map((d) => d.receipt_id)).toEqual([mine]);
    expect(mixed.not_found).toEqual([secret, MISSING]);
    // Naming the other company: 403 whatever the ids; without a session: 401.
    const forbidden = await details(intruder.api, `company_id=${owner.companyId}`, [secret]);
    expect(forbidden.status).toBe(403);
    expect(forbidden.body).toEqual({ statusCode: 403, error: 'Forbidden', message: 'You are not a member of this company' });
    expect((await details(intruder.api, `company_id=${owner.companyId}`, [MISSING])).body).toEqual(forbidden.body);
    expect((await details(apiClient(t.stack.apiUrl), `company_id=${owner.companyId}`, [secret])).status).toBe(401);
  }, 60_000);

  it('refuses bad input with a 4xx in the one error shape', async () => {
    const q = `company_id=${owner.companyId}`;
    const tooMany = Array.from({ length: DETAILS_MAX + 1 }, (_, i) => `01ID${String(i).padStart(22, '0')}`);
    const cases: [string, Promise<ApiResponse>, number][] = [
      ['too many ids', details(owner.api, q, tooMany), 422],
      ['no ids', details(owner.api, q, []), 422],
      ['ids not a list', details(owner.api, q, invoice), 422],
      ['an empty id', details(owner.api, q, [invoice, ' ']), 422],
      ['an id too long', details(owner.api, q, ['X'.repeat(DOCUMENT_ID_MAX + 1)]), 422],
      ['an id not a string', details(owner.api, q, [42]), 422],
      ['no company', details(owner.api, '', [invoice]), 422],
      ['an empty company', details(owner.api, 'company_id=', [invoice]), 422],
      ['a company id too long', details(owner.api, `company_id=${'C'.repeat(200)}`, [invoice]), 400],
      ['malformed JSON', owner.api.raw('POST', `/receipts/details?${q}`, '{"receipt_ids": ['), 400],
    ];
    for (const [what, call, status] of cases) {
      const res = await call;
      expect(res.status, what).toBe(status);
      expect(res.body, what).toMatchObject({ statusCode: status, error: expect.any(String), message: expect.any(String) });
    }
    expect(((await details(owner.api, q, tooMany)).body as { details: { message: string }[] }).details).toEqual([{ path: ['receipt_ids'], message: `At most ${DETAILS_MAX} documents` }]);
    expect(((await details(owner.api, '', [invoice])).body as { details: { path: string[] }[] }).details[0]!.path).toEqual(['company_id']);
  });

  it('answers 100 ids in one call', async () => {
    const seeded = Array.from({ length: DETAILS_MAX }, (_, i) =>
      seededDocument({ receipt_id: `01SEEDED${String(i).padStart(18, '0')}`, scope: `C#${owner.companyId}`, created_at: new Date(Date.UTC(2024, 0, 1, 0, i)).toISOString(), original_file_name: `s${i}.pdf` }),
    );
    await batchWrite(seeded.flatMap((d) => documentItemsWithIndex(d).map((Item) => ({ PutRequest: { Item } }))));
    const ids = seeded.map((d) => d.receipt_id).reverse();
    const res = await details(owner.api, `company_id=${owner.companyId}`, ids);
    expect(res.status).toBe(200);
    const body = res.body as Details;
    expect(body.items.map((d) => d.receipt_id)).toEqual(ids);
    expect(body.items.every((d) => Array.isArray(d.content))).toBe(true);
    expect(body.not_found).toEqual([]);
  }, 60_000);

  it('keeps an answer within what a Lambda may return: documents past the limit come back as remaining, to ask again', async () => {
    // 8 documents of 300 line items, about 1.3 MB of JSON each: more than one answer holds.
    const long = Array.from({ length: 8 }, (_, i) => `01LONG${String(i).padStart(20, '0')}`);
    const docs = [];
    for (const [i, id] of long.entries()) {
      const contentKey = `content/${owner.companyId}/${id}/content.json`;
      await s3().send(new PutObjectCommand({ Bucket: process.env.DOCUMENTS_BUCKET, Key: contentKey, Body: JSON.stringify(longContent(300, id)), ContentType: 'application/json' }));
      docs.push(seededDocument({ receipt_id: id, scope: `C#${owner.companyId}`, created_at: new Date(Date.UTC(2023, 0, 1, 0, i)).toISOString(), content_key: contentKey }));
    }
    await batchWrite(docs.flatMap((d) => documentItemsWithIndex(d).map((Item) => ({ PutRequest: { Item } }))));

    const got: Detail[] = [];
    let ask = [...long];
    let calls = 0;
    while (ask.length > 0 && calls < 10) {
      calls += 1;
      // As a client that takes no gzip: the answer itself must fit.
      const res = await fetch(`${t.stack.apiUrl}/receipts/details?company_id=${owner.companyId}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json', 'accept-encoding': 'identity' },
        body: JSON.stringify({ receipt_ids: ask }),
      });
      const text = await res.text();
      expect(res.status, text.slice(0, 300)).toBe(200);
      expect(Buffer.byteLength(text)).toBeLessThanOrEqual(DETAILS_BYTES_MAX + 64 * 1024);
      const body = JSON.parse(text) as Details;
      expect(body.items.length).toBeGreaterThan(0);
      expect(body.not_found).toEqual([]);
      expect([...body.items.map((d) => d.receipt_id), ...body.remaining]).toEqual(ask);
      got.push(...body.items);
      ask = body.remaining;
    }
    expect(calls).toBeGreaterThan(1);
    expect(got.map((d) => d.receipt_id)).toEqual(long);
    for (const d of got) expect(values(d.content)).toContain(`Prekė ${d.receipt_id}-299 ${(299 * 7919) % 10007}`);
  }, 120_000);
});
