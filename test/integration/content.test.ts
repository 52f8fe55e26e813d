import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContentResponse, ExportFile } from '../../shared/schemas/content';
import { CONTENT_MSG } from '../../shared/schemas/content';
import { TEXT_MSG } from '../../shared/schemas/text';
import { registeredUser, startTestStack, type TestStack } from '../support/local-stack';
import { invoicePdf, SAMPLE_INVOICE, TABLE, uploadDocument } from './content-fixtures';
import { findContentItem } from '../support/content-items';

type Api = Awaited<ReturnType<typeof registeredUser>>['api'];

const valueOf = (res: ContentResponse, id: string) => findContentItem(res.content, id)?.content?.value;

describe('content API against the local stack', () => {
  let t: TestStack;
  let api: Api;
  let companyId: string;
  let receiptId: string;
  const q = () => `company_id=${companyId}`;
  const content = async () => (await api.get(`/receipts/${receiptId}/content?${q()}`)).body as ContentResponse;

  beforeAll(async () => {
    t = await startTestStack();
    const u = await registeredUser(t.stack, 'content');
    api = u.api;
    companyId = u.companyId;
    receiptId = await uploadDocument(t.stack, api, companyId, await invoicePdf(), 'invoice-1.pdf');
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('builds content from the recognised document and serves the page boxes', async () => {
    const res = await api.get(`/receipts/${receiptId}/content?${q()}`);
    expect(res.status).toBe(200);
    const body = res.body as ContentResponse;
    expect(body).toMatchObject({ receipt_id: receiptId, receipt_type: 'receipt', read_only: false });
    expect(body.version).toBeGreaterThan(0);
    expect(valueOf(body, 'amount_total')).toBe('121.00');
    const boxes = (await api.get(`/receipts/${receiptId}/bboxes?${q()}`)).body as { pages: { page: number; words: { text: string }[] }[] };
    expect(boxes.pages).toHaveLength(1);
    expect(boxes.pages[0]!.words.map((w) => w.text)).toEqual(expect.arrayContaining(['Stapler', '121.00']));
    const preview = await api.get(`/receipts/${receiptId}/preview?${q()}`);
    expect(preview.status).toBe(200);
    expect(preview.body).toMatchObject({ receipt_id: receiptId, pages: [{ page: 1, status: 'processed', url: expect.stringContaining('http') }] });
    expect((preview.body as { fields: { id: string; value: string }[] }).fields.find((f) => f.id === 'amount_total')!.value).toBe('121.00');
    // Another company's user sees nothing.
    const other = await registeredUser(t.stack, 'stranger');
    expect((await other.api.get(`/receipts/${receiptId}/content?company_id=${other.companyId}`)).status).toBe(404);
  });

  it('two concurrent saves: one wins, the other gets 409 with the current version, nothing is lost', async () => {
    const before = await content();
    const [a, b] = await Promise.all([
      api.put(`/receipts/${receiptId}/content?${q()}`, { version: before.version, items: [{ id: 'document_id', value: 'PP-00999' }] }),
      api.put(`/receipts/${receiptId}/content?${q()}`, { version: before.version, items: [{ id: 'currency', value: 'EUR' }] }),
    ]);
    const statuses = [a.status, b.status].sort();
    expect(statuses).toEqual([200, 409]);
    const loser = a.status === 409 ? a : b;
    const winner = a.status === 200 ? a : b;
    expect(loser.body).toMatchObject({ statusCode: 409, error: 'Conflict', details: { version: before.version + 1 } });
    // The loser saves again on the current version: both changes are kept.
    const retryItems = loser === a ? [{ id: 'document_id', value: 'PP-00999' }] : [{ id: 'currency', value: 'EUR' }];
    const retry = await api.put(`/receipts/${receiptId}/content?${q()}`, { version: (winner.body as ContentResponse).version, items: retryItems });
    expect(retry.status).toBe(200);
    const after = await content();
    expect(valueOf(after, 'document_id')).toBe('PP-00999');
    expect(valueOf(after, 'currency')).toBe('EUR');
    expect(after.version).toBe(before.version + 2);
    const history = (await api.get(`/receipts/${receiptId}/history?${q()}`)).body as { items: { name: string }[] };
    expect(history.items.map((h) => h.name)).toEqual(expect.arrayContaining(['Edited Invoice number', 'Edited Currency']));
    // The list row follows the content.
    const detail = (await api.get(`/receipts/${receiptId}?${q()}`)).body as { document_number: string; version: number };
    expect(detail).toMatchObject({ document_number: 'PP-00999', version: after.version });
  });

  it('refuses badly formatted values, validates, and fills a field from a picked box', async () => {
    const c = await content();
    const bad = await api.put(`/receipts/${receiptId}/content?${q()}`, { version: c.version, items: [{ id: 'amount_total', value: '12,5' }, { id: 'issue_date', value: '04/03/2025' }] });
    expect(bad.status).toBe(422);
    expect((bad.body as { details: unknown }).details).toEqual([
      { path: ['amount_total'], message: CONTENT_MSG.amount },
      { path: ['issue_date'], message: CONTENT_MSG.date },
    ]);
    // Values are stored without the spaces around them: no date or amount reaches an export as ' 2025-03-04 '
    const spaced = await api.put(`/receipts/${receiptId}/content?${q()}`, { version: c.version, items: [{ id: 'issue_date', value: ' 2025-03-04 ' }, { id: 'amount_tax', value: ' 21.00' }] });
    expect(spaced.status).toBe(200);
    expect([valueOf(spaced.body as ContentResponse, 'issue_date'), valueOf(spaced.body as ContentResponse, 'amount_tax')]).toEqual(['2025-03-04', '21.00']);
    const v = await api.post(`/receipts/${receiptId}/content/validate?${q()}`, { items: [{ id: 'amount_tax', value: '1.234' }, { id: 'document_id', value: '' }] });
    expect(v.body).toEqual({ errors: expect.arrayContaining([{ id: 'amount_tax', message: CONTENT_MSG.amount }, { id: 'document_id', message: CONTENT_MSG.required }]) });
    const boxes = (await api.get(`/receipts/${receiptId}/bboxes?${q()}`)).body as { pages: { words: { text: string; left: number; top: number; width: number; height: number }[] }[] };
    const subtotal = boxes.pages[0]!.words.find((w) => w.text === SAMPLE_INVOICE.subtotal)!;
    const picked = await api.post(`/receipts/${receiptId}/content/amount_total_base/select?${q()}`, {
      version: (spaced.body as ContentResponse).version,
      page: 1,
      position: { left: subtotal.left - 0.005, top: subtotal.top - 0.005, width: subtotal.width + 0.01, height: subtotal.height + 0.01 },
      is_related_content: false,
    });
    expect(picked.status).toBe(200);
    const item = findContentItem((picked.body as ContentResponse).content, 'amount_total_base')!;
    expect(item.content).toMatchObject({ value: '100.00', page: 1, confidence: expect.any(Number) });
    expect(item.content!.position!.left).toBeCloseTo(subtotal.left, 4);
  });

  it('refuses a value with control characters (422, field message) and stores nothing; plain text goes to the XML export unchanged', async () => {
    const before = await content();
    for (const value of ['Acme\u0000\u0008 <UAB> & "Co"', 'Acme \ud83d UAB']) {
      const bad = await api.put(`/receipts/${receiptId}/content?${q()}`, { version: before.version, items: [{ id: 'supplier_name', value }] });
      expect(bad.status).toBe(422);
      expect(bad.body).toMatchObject({ statusCode: 422, error: 'ValidationFailed', details: [{ path: ['items', '0', 'value'], message: TEXT_MSG.controlChars }] });
    }
    const after = await content();
    expect(after.version).toBe(before.version);
    expect(valueOf(after, 'supplier_name')).toBe(valueOf(before, 'supplier_name'));

    // Lithuanian letters, an emoji, quotes and & < > are plain text: stored and exported as typed, the file well-formed.
    const plain = 'Ąžuolas <UAB> & "Co" 😀';
    const saved = await api.put(`/receipts/${receiptId}/content?${q()}`, { version: before.version, items: [{ id: 'supplier_name', value: plain }] });
    expect(saved.status).toBe(200);
    expect(valueOf(saved.body as ContentResponse, 'supplier_name')).toBe(plain);
    const exported = await api.post(`/receipts/export-xml?${q()}`, { receipt_ids: [receiptId] });
    expect(exported.status).toBe(200);
    const xml = String(exported.body);
    expect(xml).not.toMatch(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u);
    const fields = new XMLParser({ ignoreAttributes: false, parseTagValue: false }).parse(xml).Documents.Document.Fields.Field as { '@_id': string; '#text'?: string }[];
    expect(fields.find((f) => f['@_id'] === 'supplier_name')?.['#text']).toBe(plain);
    const restored = await api.put(`/receipts/${receiptId}/content?${q()}`, { version: (saved.body as ContentResponse).version, items: [{ id: 'supplier_name', value: valueOf(before, 'supplier_name') ?? '' }] });
    expect(restored.status).toBe(200);
  });

  it("a supplier code or name of any length keeps the document readable (its grid template's key stays short)", async () => {
    const other = await uploadDocument(t.stack, api, companyId, await invoicePdf(), 'invoice-long-code.pdf');
    const read = async () => api.get(`/receipts/${other}/content?${q()}`);
    const long = 'A1'.repeat(550);
    const saved = await api.put(`/receipts/${other}/content?${q()}`, { version: ((await read()).body as ContentResponse).version, items: [{ id: 'supplier_code', value: long }] });
    expect(saved.status).toBe(200);
    expect(valueOf(saved.body as ContentResponse, 'supplier_code')).toBe(long);
    expect((await read()).status).toBe(200);
    const byName = await api.put(`/receipts/${other}/content?${q()}`, {
      version: (saved.body as ContentResponse).version,
      items: [
        { id: 'supplier_code', value: '' },
        { id: 'supplier_name', value: 'Ž'.repeat(1500) },
      ],
    });
    expect(byName.status).toBe(200);
    expect((await read()).status).toBe(200);
  });

  it('applies a line-items grid, adds, moves and deletes rows', async () => {
    const c = await content();
    const rows = [1, 2].map((i) => ({ top_position: TABLE.top + i * TABLE.rowHeight }));
    const parts = [
      {
        document: null,
        page: 1,
        box: { left: TABLE.left, top: TABLE.top - 0.002, width: TABLE.right - TABLE.left, height: TABLE.rowHeight * 3 },
        rows,
        columns: [
          { schema_id: 'item_number', left_position: TABLE.left },
          { schema_id: 'description', left_position: TABLE.columns.description - 0.01 },
          { schema_id: 'quantity', left_position: TABLE.columns.qty - 0.01 },
          { schema_id: 'unit_price_without_vat', left_position: TABLE.columns.price - 0.01 },
          { schema_id: 'total_price', left_position: TABLE.columns.total - 0.01 },
          { schema_id: 'vat', left_position: 0.99 },
        ],
      },
    ];
    const noColumn = await api.post(`/receipts/${receiptId}/grid?${q()}`, { version: c.version, parts: [{ ...parts[0], columns: [{ schema_id: null, left_position: TABLE.left }] }] });
    expect(noColumn.status).toBe(422);
    const res = await api.post(`/receipts/${receiptId}/grid?${q()}`, { version: c.version, parts });
    expect(res.status).toBe(200);
    const table = findContentItem((res.body as ContentResponse).content, 'line_items')!;
    const values = table.children.map((r) => Object.fromEntries(r.children.filter((x) => x.content?.value).map((x) => [x.schema_id, x.content!.value])));
    expect(values).toEqual(
      SAMPLE_INVOICE.lines.map((l, i) => ({ item_number: String(i + 1), description: l.description, quantity: l.qty, unit_price_without_vat: l.price, total_price: l.total })),
    );
    // The column outside the box was dropped.
    expect(table.grid!.parts[0]!.columns.map((col) => col.schema_id)).not.toContain('vat');
    let version = (res.body as ContentResponse).version;
    const added = await api.post(`/receipts/${receiptId}/content/line_items?${q()}`, { version });
    expect(added.status).toBe(201);
    const rowId = (added.body as { added: string }).added;
    version = (added.body as ContentResponse).version;
    const moved = await api.put(`/receipts/${receiptId}/content/move?${q()}`, { version, id: rowId, position: 0 });
    expect(findContentItem((moved.body as ContentResponse).content, 'line_items')!.children[0]!.id).toBe(rowId);
    version = (moved.body as ContentResponse).version;
    const deleted = await api.delete(`/receipts/${receiptId}/content/${rowId}?${q()}&version=${version}`);
    expect(findContentItem((deleted.body as ContentResponse).content, 'line_items')!.children).toHaveLength(3);
    // Template: saved for the supplier, then available.
    const supplier = valueOf(deleted.body as ContentResponse, 'supplier_name');
    if (!supplier) {
      const v2 = (deleted.body as ContentResponse).version;
      await api.put(`/receipts/${receiptId}/content?${q()}`, { version: v2, items: [{ id: 'supplier_name', value: SAMPLE_INVOICE.supplier }] });
    }
    const saved = await api.post(`/receipts/${receiptId}/template/grid?${q()}`, {});
    expect(saved.status).toBe(200);
    expect((saved.body as ContentResponse).available_template).toBe(true);
  });

  it('confirms only a valid document, archives it, and then refuses edits', async () => {
    let c = await content();
    await api.put(`/receipts/${receiptId}/content?${q()}`, { version: c.version, items: [{ id: 'document_id', value: '' }] });
    c = await content();
    const refused = await api.post(`/receipt/${receiptId}?${q()}&with_send=1`, { version: c.version });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ message: 'Failed to update the receipt. Please check if all mandatory fields are filled.', details: expect.arrayContaining([{ path: ['document_id'], message: CONTENT_MSG.required }]) });
    const ok = await api.post(`/receipt/${receiptId}?${q()}&with_send=1`, {
      version: c.version,
      items: [
        { id: 'document_id', value: SAMPLE_INVOICE.number },
        { id: 'supplier_name', value: SAMPLE_INVOICE.supplier },
        { id: 'supplier_code', value: SAMPLE_INVOICE.supplierCode },
      ],
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ receipt: { status: 'archive' }, content: { read_only: true } });
    c = await content();
    const locked = await api.put(`/receipts/${receiptId}/content?${q()}`, { version: c.version, items: [{ id: 'currency', value: 'USD' }] });
    expect(locked.status).toBe(409);
    expect(locked.body).toMatchObject({ message: 'Archived documents are read-only' });
    const history = (await api.get(`/receipts/${receiptId}/history?${q()}`)).body as { items: { name: string }[] };
    expect(history.items.map((h) => h.name)).toEqual(expect.arrayContaining(['Applied the line-items grid', 'Read Subtotal from the page', 'Moved to archive']));
  });

  it("checks the supplier's code against the company's code as Settings has it now, not as it was at the upload", async () => {
    const id = await uploadDocument(t.stack, api, companyId, await invoicePdf({ ...SAMPLE_INVOICE, number: 'RN-1' }), 'renamed-company.pdf');
    const companies = (await api.get('/companies')).body as { items: { company_id: string; code: string }[] };
    const oldCode = companies.items.find((c) => c.company_id === companyId)!.code;
    expect((await api.put(`/company?${q()}`, { name: 'Renamed UAB', code: '398765432' })).status).toBe(200);
    const contentOf = async () => (await api.get(`/receipts/${id}/content?${q()}`)).body as ContentResponse;
    const items = (code: string) => [
      { id: 'document_id', value: 'RN-1' },
      { id: 'supplier_name', value: SAMPLE_INVOICE.supplier },
      { id: 'supplier_vat_id', value: '' },
      { id: 'supplier_code', value: code },
    ];
    // The new code as the supplier's: refused with the edit screen's note
    const refused = await api.post(`/receipt/${id}?${q()}&with_send=1`, { version: (await contentOf()).version, items: items('398 765 432') });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ message: CONTENT_MSG.companyCode });
    // i.SAF names the company by its code as it is now
    const isaf = (await api.get(`/receipts/${id}/export?${q()}&type=isaf`)).body as ExportFile;
    expect(Buffer.from(isaf.base64, 'base64').toString('utf8')).toContain('<RegistrationNumber>398765432</RegistrationNumber>');
    // The code of the upload is no longer the company's: a supplier may have it
    const ok = await api.post(`/receipt/${id}?${q()}&with_send=1`, { version: (await contentOf()).version, items: items(oldCode) });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ receipt: { status: 'archive' } });
  });

  it('exports CSV, PDF and i.SAF files', async () => {
    const second = await uploadDocument(t.stack, api, companyId, await invoicePdf({ ...SAMPLE_INVOICE, number: 'PP-2026', date: '2026-01-15', vatRate: '12', vat: '12.00', total: '112.00' }), 'invoice-2026.pdf');
    let c2 = (await api.get(`/receipts/${second}/content?${q()}`)).body as ContentResponse;
    // One VAT line of 12 %: the recognised one, corrected, or a new one.
    let row = findContentItem(c2.content, 'vat_lines')!.children[0]?.id;
    if (!row) {
      const add = await api.post(`/receipts/${second}/content/vat_lines?${q()}`, { version: c2.version });
      row = (add.body as { added: string }).added;
      c2 = add.body as ContentResponse;
    }
    const set = await api.put(`/receipts/${second}/content?${q()}`, {
      version: c2.version,
      items: [
        { id: 'issue_date', value: '2026-01-15' },
        { id: `${row}.vat_line_rate`, value: '12' },
        { id: `${row}.vat_line_base`, value: '100.00' },
        { id: `${row}.vat_line_tax`, value: '12.00' },
      ],
    });
    expect(set.status).toBe(200);
    expect(findContentItem((set.body as ContentResponse).content, 'vat_lines')!.children).toHaveLength(1);
    const csvRes = await api.get(`/receipts/${receiptId}/export?${q()}&type=csv&receipt_ids=${second}&file_name=costs`);
    expect(csvRes.status).toBe(200);
    const csv = csvRes.body as ExportFile;
    expect(csv).toMatchObject({ mime: 'text/csv', name: 'costs.csv' });
    const lines = Buffer.from(csv.base64, 'base64').toString('utf8').replace(/^\ufeff/, '').trimEnd().split('\r\n');
    expect(lines[0]).toBe('USER,TYPE,DATE,CURRENCY,STATUS,TOTAL,TAX,SUPPLIER,CATEGORY,NOTES');
    expect(lines[1]).toContain(',Receipt,2025-03-04,');
    expect(lines[1]).toContain(',Archive,121.00,');
    expect(lines[2]).toContain(',Receipt,2026-01-15,');
    // added fields of the record: the document's company (a file of the all-companies view tells them apart)
    const record = (await api.get(`/receipts/${receiptId}?${q()}`)).body as { company_name: string; company_code: string };
    expect(record.company_name).not.toBe('');
    // as the company is now (as the list names it), not as the document keeps it of its upload: renamed since
    expect((await api.put(`/company?${q()}`, { name: 'Exports Renamed UAB', code: '398765433' })).status).toBe(200);
    expect(record.company_name).not.toBe('Exports Renamed UAB');
    const withCompany = (await api.get(`/receipts/${receiptId}/export?${q()}&type=csv&fields=${encodeURIComponent('total,company:Company,company_code:Company code')}`)).body as ExportFile;
    const companyLines = Buffer.from(withCompany.base64, 'base64').toString('utf8').replace(/^\ufeff/, '').trimEnd().split('\r\n');
    expect(companyLines).toEqual(['TOTAL,COMPANY,COMPANY CODE', '121.00,Exports Renamed UAB,398765433']);

    const pdfRes = (await api.get(`/receipts/${receiptId}/export?${q()}&type=pdf&receipt_ids=${second}`)).body as ExportFile;
    expect(pdfRes.mime).toBe('application/pdf');
    const dir = mkdtempSync(path.join(tmpdir(), 'export-'));
    const pdfFile = path.join(dir, 'export.pdf');
    writeFileSync(pdfFile, Buffer.from(pdfRes.base64, 'base64'));
    const out = path.resolve(import.meta.dirname, '../e2e/output/content-export-pdf');
    mkdirSync(path.dirname(out), { recursive: true });
    execFileSync('pdftoppm', ['-png', '-r', '60', '-singlefile', pdfFile, out]);
    expect(readFileSync(`${out}.png`).length).toBeGreaterThan(5000);

    const isafRes = (await api.get(`/receipts/${receiptId}/export?${q()}&type=isaf&receipt_ids=${second}`)).body as ExportFile;
    const xml = Buffer.from(isafRes.base64, 'base64').toString('utf8');
    const parsed = new XMLParser({ ignoreAttributes: false, parseTagValue: false, isArray: (n) => ['Invoice', 'DocumentTotal'].includes(n) }).parse(xml);
    const invoices = parsed.iSAFFile.SourceDocuments.PurchaseInvoices.Invoice as { InvoiceDate: string; DocumentTotals: { DocumentTotal: { TaxCode: string; TaxPercentage: string }[] } }[];
    const codes = Object.fromEntries(invoices.map((i) => [i.InvoiceDate.slice(0, 4), i.DocumentTotals.DocumentTotal.map((d) => `${d.TaxCode}:${d.TaxPercentage}`)]));
    expect(codes['2026']).toEqual(['PVM58:12']);
    expect(codes['2025']?.[0]).toMatch(/^PVM1:21$/);
  });

  it('keeps the document schema per company; only administrators change it', async () => {
    const get = await api.get(`/schemas?${q()}`);
    expect(get.status).toBe(200);
    const put = await api.put(`/schemas?${q()}`, { datapoints: [{ id: 'iban', hidden: true }, { id: 'issue_date', constraints: { required: true } }] });
    expect(put.status).toBe(200);
    const fields = (put.body as { fields: { id: string; hidden: boolean; constraints: { required: boolean } }[] }).fields;
    expect(fields.find((f) => f.id === 'iban')!.hidden).toBe(true);
    expect(fields.find((f) => f.id === 'issue_date')!.constraints.required).toBe(true);
    const bad = await api.put(`/schemas?${q()}`, { datapoints: [{ id: 'nope', hidden: true }] });
    expect(bad.status).toBe(422);
    const noCompany = await api.put('/schemas', { datapoints: [{ id: 'iban', hidden: false }] });
    expect(noCompany.status).toBe(403);
  });

  it('two changes of the schema at once (different fields) are both kept', async () => {
    type Fields = { fields: { id: string; hidden: boolean }[] };
    const hidden = (body: unknown, id: string) => (body as Fields).fields.find((f) => f.id === id)!.hidden;
    const start = await api.put(`/schemas?${q()}`, { datapoints: [{ id: 'due_date', hidden: false }, { id: 'iban', hidden: true }] });
    expect([hidden(start.body, 'due_date'), hidden(start.body, 'iban')]).toEqual([false, true]);
    const puts = await Promise.all([
      api.put(`/schemas?${q()}`, { datapoints: [{ id: 'due_date', hidden: true }] }),
      api.put(`/schemas?${q()}`, { datapoints: [{ id: 'iban', hidden: false }] }),
    ]);
    expect(puts.map((r) => r.status)).toEqual([200, 200]);
    const now = (await api.get(`/schemas?${q()}`)).body;
    expect([hidden(now, 'due_date'), hidden(now, 'iban')]).toEqual([true, false]);
    // and the last answer already shows both
    expect(puts.some((r) => hidden(r.body, 'due_date') && !hidden(r.body, 'iban'))).toBe(true);
  });
});
