import { describe, expect, it } from 'vitest';
import type { PageBoxes } from '../../../lambdas/core/content/build';
import type { ContentPorts, GridTemplate, StoredContent } from '../../../lambdas/core/content/ports';
import type { SchemaOverrides } from '../../../lambdas/core/content/schema';
import {
  addLine,
  applyReceiptGrid,
  contentSummary,
  deleteLine,
  getBoxes,
  getCompanySchema,
  getContent,
  moveLine,
  parseStoredContent,
  saveGridTemplate,
  SCHEMA_BUSY,
  SCHEMA_WRITE_ATTEMPTS,
  selectBox,
  updateCompanySchema,
  updateContent,
  useGridTemplate,
  validateReceiptContent,
} from '../../../lambdas/core/content/service';
import type { DocumentRecord } from '../../../lambdas/core/documents/types';
import { exportReceipts } from '../../../lambdas/core/export/service';
import { AppError } from '../../../shared/errors';
import { CONTENT_MSG } from '../../../shared/schemas/content';
import { changeDocumentStatus } from '../../../lambdas/core/content/edit';
import { invoicePage } from './fixtures';

function record(id: string, overrides: Partial<DocumentRecord> = {}): DocumentRecord {
  return {
    receipt_id: id,
    scope: 'C#c1',
    company_id: 'c1',
    company_name: 'Mano UAB',
    company_code: '300000001',
    user_id: 'u1',
    user: { name: 'Ona', surname: 'Onaitė' },
    receipt_type: 'receipt',
    status: 'review',
    flag: false,
    notes: '',
    category: null,
    original_file_name: 'invoice.pdf',
    email_id: null,
    duplicate_id: null,
    stakeholder_id: null,
    counterparty_name: '',
    document_number: '',
    issue_date: null,
    total: null,
    currency: null,
    search_text: '',
    key_digest: null,
    can_be_restarted: false,
    error_message: null,
    created_at: '2025-05-01T10:00:00.000Z',
    updated_at: '2025-05-01T10:00:00.000Z',
    version: 1,
    upload_id: null,
    mode: 'single',
    split_page: null,
    upload_type: null,
    process_rows: false,
    source: null,
    pages: [{ page: 1, document: 'invoice.pdf', image_key: 'p1.jpg', status: 'processed', width: 1000, height: 1400 }],
    content_key: null,
    boxes_key: null,
    related_documents: [],
    charged_month: null,
    processing_run: 1,
    ...overrides,
  };
}

/** In-memory ports: records with version checks, blobs, settings, and the history written. */
function fakePorts() {
  const records = new Map<string, DocumentRecord>();
  const blobs = new Map<string, unknown>();
  const boxes = new Map<string, PageBoxes[]>();
  const overrides = new Map<string, SchemaOverrides>();
  const schemaVersions = new Map<string, number>();
  const templates = new Map<string, GridTemplate>();
  const history: { receipt_id: string; name: string }[] = [];
  let n = 0;
  const ports: ContentPorts = {
    clock: { now: () => new Date('2026-02-01T12:00:00Z') },
    documents: {
      async load(caller, id) {
        const r = records.get(id);
        if (!r || r.company_id !== caller.companyId) throw new AppError('NotFound', 'Not found');
        return structuredClone(r);
      },
      async saveContent({ before, contentKey, content, historyName, backToReview }) {
        const current = records.get(before.receipt_id)!;
        if (current.version !== before.version) throw new AppError('Conflict', 'stale', { version: current.version });
        const status = backToReview ? ('review' as const) : current.status;
        const next = { ...current, status, content_key: contentKey, version: current.version + 1, ...contentSummary(content, current.receipt_type) };
        records.set(next.receipt_id, next);
        history.push({ receipt_id: next.receipt_id, name: historyName });
        return structuredClone(next);
      },
      async loadMany(caller, ids) {
        return ids.flatMap((id) => (records.get(id)?.company_id === caller.companyId ? [structuredClone(records.get(id)!)] : []));
      },
    },
    blobs: {
      readContent: async (key) => structuredClone(blobs.get(key)),
      writeContent: async (r, content: StoredContent) => {
        const key = `content/${r.receipt_id}/${++n}.json`;
        blobs.set(key, structuredClone(content));
        return key;
      },
      readBoxes: async (r) => boxes.get(r.receipt_id),
      writeBoxes: async (r, b) => void boxes.set(r.receipt_id, b),
    },
    settings: {
      getSchemaOverrides: async (c) => overrides.get(c) ?? {},
      readSchemaOverrides: async (c) => ({ overrides: structuredClone(overrides.get(c) ?? {}), version: schemaVersions.get(c) ?? 0 }),
      // C5: written only while the stored version is the one read
      putSchemaOverrides: async (c, o, _meta, version) => {
        if (version !== undefined && version !== (schemaVersions.get(c) ?? 0)) return false;
        overrides.set(c, o);
        schemaVersions.set(c, (schemaVersions.get(c) ?? 0) + 1);
        return true;
      },
      getGridTemplate: async (c, k) => templates.get(`${c}|${k}`),
      putGridTemplate: async (c, t) => void templates.set(`${c}|${t.key}`, t),
      getCompany: async () => undefined,
    },
  };
  return { ports, records, boxes, history, templates };
}

const caller = { userId: 'u1', companyId: 'c1' };

describe('content service', () => {
  it('reads empty content with validation errors, and 404 for another company', async () => {
    const { ports, records } = fakePorts();
    records.set('r1', record('r1'));
    const res = await getContent(ports, caller, 'r1');
    expect(res).toMatchObject({ receipt_id: 'r1', version: 1, read_only: false, available_template: false });
    expect(res.errors.map((e) => e.id)).toEqual(['document_id', 'supplier_name']);
    expect(res.content.find((i) => i.id === 'document')!.children.find((c) => c.id === 'document_id')!.error).toEqual({ message: CONTENT_MSG.required });
    await expect(getContent(ports, { userId: 'u2', companyId: 'c2' }, 'r1')).rejects.toMatchObject({ kind: 'NotFound' });
  });

  it('saves values on the current version, refuses a stale one with the current version, keeps both changes', async () => {
    const { ports, records, history } = fakePorts();
    records.set('r1', record('r1'));
    const a = await updateContent(ports, caller, 'r1', { version: 1, items: [{ id: 'amount_total', value: '10.00' }] });
    expect(a.version).toBe(2);
    const stale = updateContent(ports, caller, 'r1', { version: 1, items: [{ id: 'document_id', value: 'INV-1' }] });
    await expect(stale).rejects.toMatchObject({ kind: 'Conflict', details: { version: 2 } });
    const b = await updateContent(ports, caller, 'r1', { version: 2, items: [{ id: 'document_id', value: 'INV-1' }] });
    expect(b.version).toBe(3);
    const content = await getContent(ports, caller, 'r1');
    const values = Object.fromEntries(content.content.flatMap((s) => s.children).map((c) => [c.id, c.content?.value]));
    expect(values).toMatchObject({ amount_total: '10.00', document_id: 'INV-1' });
    expect(history.map((h) => h.name)).toEqual(['Edited Total', 'Edited Invoice number']);
    expect(records.get('r1')).toMatchObject({ document_number: 'INV-1', total: '10.00' });
    // A value sent as it is stored (typed over and back) is no edit: only the changed one is named; none, nothing written
    const c = await updateContent(ports, caller, 'r1', { version: 3, items: [{ id: 'amount_total', value: '10.00' }, { id: 'document_id', value: 'INV-2' }] });
    expect(c.version).toBe(4);
    expect(history.at(-1)!.name).toBe('Edited Invoice number');
    const same = await updateContent(ports, caller, 'r1', { version: 4, items: [{ id: 'amount_total', value: '10.00' }] });
    expect(same.version).toBe(4);
    expect(history).toHaveLength(3);
  });

  it('refuses changes to archived documents', async () => {
    const { ports, records } = fakePorts();
    records.set('r1', record('r1', { status: 'archive' }));
    expect((await getContent(ports, caller, 'r1')).read_only).toBe(true);
    await expect(updateContent(ports, caller, 'r1', { version: 1, items: [{ id: 'amount_total', value: '1.00' }] })).rejects.toMatchObject({ kind: 'Conflict', message: 'Archived documents are read-only' });
  });

  it('writes nothing for a picked area without a word in it (the field keeps its value)', async () => {
    const { ports, records, boxes, history } = fakePorts();
    records.set('r1', record('r1'));
    boxes.set('r1', [invoicePage()]);
    const picked = await selectBox(ports, caller, 'r1', 'amount_total', { version: 1, page: 1, position: { left: 0.7, top: 0.79, width: 0.2, height: 0.03 }, is_related_content: false });
    expect(picked.content.find((i) => i.id === 'amounts')!.children.find((c) => c.id === 'amount_total')!.content?.value).toBe('121.00');
    const blank = { left: 0.01, top: 0.97, width: 0.05, height: 0.02 };
    await expect(selectBox(ports, caller, 'r1', 'amount_total', { version: 2, page: 1, position: blank, is_related_content: false })).rejects.toMatchObject({
      kind: 'ValidationFailed',
      message: CONTENT_MSG.noTextInArea,
    });
    const after = await getContent(ports, caller, 'r1');
    expect(after.content.find((i) => i.id === 'amounts')!.children.find((c) => c.id === 'amount_total')!.content?.value).toBe('121.00');
    expect(history).toHaveLength(1);
  });

  it('fills a field from a picked box, adds, moves and deletes rows, validates unsaved values', async () => {
    const { ports, records, boxes, history } = fakePorts();
    records.set('r1', record('r1'));
    boxes.set('r1', [invoicePage()]);
    const picked = await selectBox(ports, caller, 'r1', 'amount_total', { version: 1, page: 1, position: { left: 0.7, top: 0.79, width: 0.2, height: 0.03 }, is_related_content: false });
    const total = picked.content.find((i) => i.id === 'amounts')!.children.find((c) => c.id === 'amount_total')!;
    expect(total.content).toMatchObject({ value: '121.00', page: 1, block_id: 'w4' });
    expect(total.file).toBe('invoice.pdf');
    const added = await addLine(ports, caller, 'r1', 'line_items', { version: 2 });
    const second = await addLine(ports, caller, 'r1', 'line_items', { version: 3 });
    const moved = await moveLine(ports, caller, 'r1', { version: 4, id: second.added, position: 0 });
    expect(moved.content.find((i) => i.id === 'line_items')!.children.map((r) => r.id)).toEqual([second.added, added.added]);
    const deleted = await deleteLine(ports, caller, 'r1', added.added, 5);
    expect(deleted.content.find((i) => i.id === 'line_items')!.children).toHaveLength(1);
    expect(history.map((h) => h.name)).toEqual(['Read Total from the page', 'Added a row to Line items', 'Added a row to Line items', 'Moved a row of Line items', 'Deleted a row of Line items']);
    const v = await validateReceiptContent(ports, caller, 'r1', { items: [{ id: 'amount_total', value: '12,50' }, { id: 'document_id', value: 'A1' }, { id: 'supplier_name', value: 'X' }] });
    expect(v.errors).toEqual([{ id: 'amount_total', message: CONTENT_MSG.amount }]);
    const pages = await getBoxes(ports, caller, 'r1');
    expect(pages.pages[0]).toMatchObject({ page: 1, file: 'invoice.pdf', status: 'processed' });
    expect(pages.pages[0]!.words.length).toBeGreaterThan(10);
  });

  it('applies a grid, saves it as the supplier template and uses it on the next document', async () => {
    const { ports, records, boxes } = fakePorts();
    records.set('r1', record('r1'));
    records.set('r2', record('r2'));
    boxes.set('r1', [invoicePage()]);
    boxes.set('r2', [invoicePage()]);
    await updateContent(ports, caller, 'r1', { version: 1, items: [{ id: 'supplier_name', value: 'UAB Tiekėjas' }] });
    await updateContent(ports, caller, 'r2', { version: 1, items: [{ id: 'supplier_name', value: 'uab tiekejas' }] });
    const parts = [
      {
        document: null,
        page: 1,
        box: { left: 0.04, top: 0.4, width: 0.9, height: 0.12 },
        rows: [{ top_position: 0.44 }, { top_position: 0.48 }],
        columns: [
          { schema_id: 'description', left_position: 0.04 },
          { schema_id: 'quantity', left_position: 0.45 },
          { schema_id: 'total_price', left_position: 0.7 },
        ],
      },
    ];
    await expect(applyReceiptGrid(ports, caller, 'r1', { version: 2, parts: [{ ...parts[0]!, page: 2 }] })).rejects.toMatchObject({ kind: 'ValidationFailed', message: 'Page 2 does not exist' });
    const applied = await applyReceiptGrid(ports, caller, 'r1', { version: 2, parts });
    const table = applied.content.find((i) => i.id === 'line_items')!;
    expect(table.children.map((r) => r.children.find((c) => c.schema_id === 'description')!.content!.value)).toEqual(['Paper A4', 'Pens', 'Stapler']);
    expect(table.grid!.parts[0]!.rows).toHaveLength(3);
    const saved = await saveGridTemplate(ports, caller, 'r1');
    expect(saved.available_template).toBe(true);
    expect((await getContent(ports, caller, 'r2')).available_template).toBe(true);
    const used = await useGridTemplate(ports, caller, 'r2', 2);
    expect(used.content.find((i) => i.id === 'line_items')!.children).toHaveLength(3);
  });

  it('sends a ready document back to review when an edit leaves a required value missing, not otherwise', async () => {
    const { ports, records } = fakePorts();
    records.set('r1', record('r1', { status: 'ready' }));
    records.set('r2', record('r2', { status: 'ready' }));
    await updateContent(ports, caller, 'r1', { version: 1, items: [{ id: 'supplier_name', value: 'A' }, { id: 'document_id', value: 'D-1' }] });
    expect(records.get('r1')!.status).toBe('ready');
    await updateContent(ports, caller, 'r2', { version: 1, items: [{ id: 'supplier_name', value: 'A' }] });
    expect(records.get('r2')!.status).toBe('review');
  });

  it('marks ready by hand only content a confirm would take, after the refusals of the status machine', async () => {
    const { ports, records } = fakePorts();
    records.set('r1', record('r1', { status: 'archive' }));
    records.set('r2', record('r2'));
    const moved: string[] = [];
    const workflow = { changeStatus: async (_c: unknown, id: string) => (moved.push(id), {} as never) };
    await expect(changeDocumentStatus(ports, workflow, caller, 'r1', 'ready')).rejects.toMatchObject({ statusCode: 409, message: 'Archived documents are read-only' });
    await expect(changeDocumentStatus(ports, workflow, caller, 'r2', 'ready')).rejects.toMatchObject({ statusCode: 422, message: CONTENT_MSG.saveFailed });
    await updateContent(ports, caller, 'r2', { version: 1, items: [{ id: 'supplier_name', value: 'A' }, { id: 'document_id', value: 'D-1' }] });
    await changeDocumentStatus(ports, workflow, caller, 'r2', 'ready');
    expect(moved).toEqual(['r2']);
  });

  it('keeps the schema per company and exports', async () => {
    const { ports, records } = fakePorts();
    records.set('r1', record('r1'));
    records.set('r2', record('r2', { status: 'ready' }));
    const schema = await updateCompanySchema(ports, { ...caller, companyId: 'c1' }, { datapoints: [{ id: 'iban', hidden: true }] });
    expect(schema.fields.find((f) => f.id === 'iban')!.hidden).toBe(true);
    expect((await getCompanySchema(ports, 'c2')).fields.find((f) => f.id === 'iban')!.hidden).toBe(false);
    await updateContent(ports, caller, 'r1', { version: 1, items: [{ id: 'amount_total', value: '5.00' }, { id: 'supplier_name', value: 'A' }, { id: 'issue_date', value: '2026-01-30' }] });
    // A document that is not there (zz) is not left out of the file silently: the export is refused.
    await expect(exportReceipts(ports, caller, 'r1', { type: 'csv', receipt_ids: 'r1,r2,zz' })).rejects.toMatchObject({ kind: 'NotFound' });
    const csv = await exportReceipts(ports, caller, 'r1', { type: 'csv', receipt_ids: 'r1,r2' });
    expect(csv).toMatchObject({ mime: 'text/csv', name: 'report-2026-02-01.csv' });
    const text = Buffer.from(csv.base64, 'base64').toString('utf8');
    expect(text.split('\r\n')).toHaveLength(4);
    const isaf = await exportReceipts(ports, caller, 'r1', { type: 'isaf' });
    expect(Buffer.from(isaf.base64, 'base64').toString()).toContain('<RegistrationNumber>300000001</RegistrationNumber>');
  });

  it('two admins change different fields at once: both changes are kept (the later write merges again); a write that keeps losing is refused', async () => {
    const { ports } = fakePorts();
    const admin = { ...caller, companyId: 'c1' };
    await Promise.all([
      updateCompanySchema(ports, admin, { datapoints: [{ id: 'due_date', hidden: true }] }),
      updateCompanySchema(ports, admin, { datapoints: [{ id: 'iban', hidden: true }] }),
    ]);
    const fields = (await getCompanySchema(ports, 'c1')).fields;
    expect([fields.find((f) => f.id === 'due_date')!.hidden, fields.find((f) => f.id === 'iban')!.hidden]).toEqual([true, true]);
    let tries = 0;
    const losing: ContentPorts = { ...ports, settings: { ...ports.settings, putSchemaOverrides: async () => (tries++, false) } };
    await expect(updateCompanySchema(losing, admin, { datapoints: [{ id: 'iban', hidden: false }] })).rejects.toMatchObject({ kind: 'Conflict', message: SCHEMA_BUSY });
    expect(tries).toBe(SCHEMA_WRITE_ATTEMPTS);
  });

  it('reads stored content written as a bare list of items', () => {
    const doc = parseStoredContent([{ id: 'amount_total', schema_id: 'amount_total', category: 'datapoint', content: { value: '1.00', page: 1, position: null, confidence: 50 } }]);
    expect(doc!.items[0]!.content).toMatchObject({ value: '1.00', block_id: null });
  });
});
