import { describe, expect, it } from 'vitest';
import type { OcrBox, PageBoxes } from '../../../lambdas/core/content/build';
import { HEADER_TO_SCHEMA, SCHEMA_TO_HEADER } from '../../../lambdas/core/content/build';
import { editReceipt, type ConfirmLearning } from '../../../lambdas/core/content/edit';
import { confirmedFieldsFromContent, confirmedPlacesFromContent, learnFromConfirmed, wordsFromBoxes } from '../../../lambdas/core/content/learn-layout';
import type { ContentPorts } from '../../../lambdas/core/content/ports';
import { companySchema } from '../../../lambdas/core/content/schema';
import { toStored } from '../../../lambdas/core/content/service';
import { addRow, emptyContent, setValues, type ContentDocument } from '../../../lambdas/core/content/tree';
import type { DocumentRecord } from '../../../lambdas/core/documents/types';
import { toSummary } from '../../../lambdas/core/documents/views';
import { toAnalyzeExpenseResult } from '../../../lambdas/core/recognition/expense';
import { extractDocument } from '../../../lambdas/core/recognition/extract/index';
import { lookupKeys, printedText } from '../../../lambdas/core/recognition/layout-keys';
import { applyHintsToResult, applyLayout } from '../../../lambdas/core/recognition/learn';
import { mapExpenseToFields } from '../../../lambdas/core/recognition/map-fields';
import { HEADER_FIELD_IDS, type OcrWord } from '../../../lambdas/core/recognition/types';
import { AppError } from '../../../shared/errors';
import { memoryLayouts } from '../documents/fakes';
import { textDocument } from '../recognition/helpers';

const schema = companySchema();
const content = (values: Record<string, string>): ContentDocument => setValues(emptyContent(schema), Object.entries(values).map(([id, value]) => ({ id, value })));

function record(overrides: Partial<DocumentRecord> = {}): DocumentRecord {
  return {
    receipt_id: 'r1', scope: 'C#c1', company_id: 'c1', company_name: 'Mano UAB', company_code: '300000001', user_id: 'u1',
    user: { name: 'Ona', surname: 'Onaitė' }, receipt_type: 'receipt', status: 'review', flag: false, notes: '', category: null,
    original_file_name: 'invoice.pdf', email_id: null, duplicate_id: null, stakeholder_id: null, counterparty_name: '',
    document_number: '', issue_date: null, total: null, currency: null, search_text: '', key_digest: null, can_be_restarted: false,
    error_message: null, created_at: '2025-05-01T10:00:00.000Z', updated_at: '2025-05-01T10:00:00.000Z', version: 3, upload_id: null,
    mode: 'single', split_page: null, upload_type: null, process_rows: false, source: null,
    pages: [{ page: 1, document: 'invoice.pdf', image_key: 'p1.jpg', status: 'processed', width: 1000, height: 1400 }],
    content_key: 'content/r1.json', boxes_key: 'boxes/r1.json', related_documents: [], charged_month: null, processing_run: 1,
    ...overrides,
  };
}

/** A supplier's printout: the number after "Our ref", the date month first. */
const PRINTOUT = ['ACME TRADING UAB', 'VAT ID: LT119511515', '', 'Order No.: PO-1        Date: 03/04/2024', 'Our ref: HF-100', '', 'TOTAL                  99.10'];
const NEXT = ['ACME TRADING UAB', 'VAT ID: LT119511515', '', 'Order No.: PO-2        Date: 05/07/2024', 'Our ref: HF-200', '', 'TOTAL                  15.00'];

function boxesOf(lines: string[]): PageBoxes[] {
  const words = textDocument(lines).pages[0]!.lines.flatMap((l) => l.words);
  return [{ page: 1, file: 'invoice.pdf', words: words.map((w, i): OcrBox => ({ id: `w${i}`, text: w.text, ...w.box, confidence: w.confidence })), lines: [] }];
}

const CONFIRMED = { supplier_name: 'ACME TRADING UAB', supplier_vat_id: 'LT119511515', document_id: 'HF-100', issue_date: '2024-03-04', amount_total: '99.10' };

describe('content → confirmed fields', () => {
  it('maps every header datapoint back to its field (one reverse mapping)', () => {
    expect(SCHEMA_TO_HEADER.size).toBe(HEADER_FIELD_IDS.length);
    for (const id of HEADER_FIELD_IDS) expect(SCHEMA_TO_HEADER.get(HEADER_TO_SCHEMA[id])).toBe(id);
  });

  const cases: [string, ContentDocument, Record<string, string>][] = [
    ['empty content', emptyContent(schema), {}],
    ['filled header values, trimmed, under their field ids', content({ supplier_name: '  ACME  ', supplier_street: 'Pier Road 4', document_id: 'HF-1', issue_date: '2024-03-04', amount_total: '99.10' }), {
      supplier_name: 'ACME', supplier_address: 'Pier Road 4', document_id: 'HF-1', issue_date: '2024-03-04', amount_total: '99.10',
    }],
    ['blank values are not confirmed values', content({ document_id: '   ', currency: '' }), {}],
    ['datapoints without a field of the field map are left out', content({ supplier_city: 'Vilnius', document_category: 'SF', account_number: '123' }), {}],
  ];
  it.each(cases)('%s', (_name, doc, expected) => {
    expect(confirmedFieldsFromContent(doc)).toEqual(expected);
  });

  it('says where each filled header value was read; values without a position (typed) have none', () => {
    const box = { left: 0.7, top: 0.5, width: 0.1, height: 0.02 };
    const doc = setValues(emptyContent(schema), [
      { id: 'amount_total', value: '14.90', position: box, page: 1 },
      { id: 'document_id', value: 'CS-1', position: null },
      { id: 'issue_date', value: '', position: box, page: 1 },
    ]);
    expect(confirmedPlacesFromContent(doc)).toEqual({ amount_total: { page: 1, box } });
  });

  it('values in table rows are not header values', () => {
    const { doc, rowId } = addRow(content({ amount_total: '12.00' }), schema, 'vat_lines');
    const withRow = setValues(doc, [{ id: `${rowId}.vat_line_total`, value: '99.99' }]);
    expect(confirmedFieldsFromContent(withRow)).toEqual({ amount_total: '12.00' });
  });
});

describe('stored boxes → OCR words', () => {
  const w = (o: Partial<OcrBox>): OcrBox => ({ id: 'w', text: 'Total', left: 0.1, top: 0.2, width: 0.05, height: 0.01, confidence: 90, ...o });
  const page = (words: OcrBox[], extra: Partial<PageBoxes> = {}): PageBoxes => ({ page: 1, file: null, words, lines: [], ...extra });
  const cases: [string, unknown, OcrWord[]][] = [
    ['nothing stored', undefined, []],
    ['not a list', { page: 1 }, []],
    ['a page without words or lines', [page([])], []],
    ['a word', [page([w({})])], [{ text: 'Total', box: { left: 0.1, top: 0.2, width: 0.05, height: 0.01 }, confidence: 90, page: 1 }]],
    ['text trimmed, confidence kept within 0–100', [page([w({ text: ' 12.00 ', confidence: 140 }), w({ confidence: Number.NaN })], { page: 2 })], [
      { text: '12.00', box: { left: 0.1, top: 0.2, width: 0.05, height: 0.01 }, confidence: 100, page: 2 },
      { text: 'Total', box: { left: 0.1, top: 0.2, width: 0.05, height: 0.01 }, confidence: 0, page: 2 },
    ]],
    ['empty text, no size, outside the page or not numbers are dropped', [page([
      w({ text: '  ' }), w({ width: 0 }), w({ height: -0.01 }), w({ left: 0.99, width: 0.2 }), w({ top: -0.5 }), w({ left: Number.POSITIVE_INFINITY }), w({ top: '0.2' as unknown as number }),
    ])], []],
    ['pages numbered from 1 only', [page([w({})], { page: 0 }), page([w({})], { page: 1.5 }), null], []],
    ['a page stored with lines only gives its lines', [page([], { lines: [{ ...w({ text: 'Total due 12.00', width: 0.3 }), word_ids: [] }] })], [
      { text: 'Total due 12.00', box: { left: 0.1, top: 0.2, width: 0.3, height: 0.01 }, confidence: 90, page: 1 },
    ]],
  ];
  it.each(cases)('%s', (_name, input, expected) => {
    expect(wordsFromBoxes(input as PageBoxes[])).toEqual(expected);
  });

  it('the words of stored boxes are enough for the learner', async () => {
    const layouts = memoryLayouts();
    const deps = { blobs: { readBoxes: async () => boxesOf(PRINTOUT) }, layouts, clock: { now: () => new Date('2026-01-01T00:00:00Z') } };
    await learnFromConfirmed(deps, { record: record(), content: content(CONFIRMED), userId: 'u1' });
    const hint = layouts.items.get('c1|VAT#LT119511515')!.hint;
    expect(applyLayout(hint, wordsFromBoxes(boxesOf(NEXT)))).toMatchObject({ document_id: { value: 'HF-200' }, issue_date: { value: '2024-05-07' }, amount_total: { value: '15.00' } });
  });
});

describe('learning on confirm', () => {
  const clock = { now: () => new Date('2026-02-01T12:00:00Z') };
  type Opts = { record?: Partial<DocumentRecord>; values?: Record<string, string>; boxes?: PageBoxes[] };
  const learnWith = async (opts: Opts) => {
    const layouts = memoryLayouts();
    const boxes = 'boxes' in opts ? opts.boxes : boxesOf(PRINTOUT);
    const deps = { blobs: { readBoxes: async () => boxes }, layouts, clock };
    const outcome = await learnFromConfirmed(deps, { record: record(opts.record), content: content(opts.values ?? CONFIRMED), userId: 'u1' });
    return { layouts, outcome };
  };

  it('stores the layout for the company under the supplier\'s VAT ID, code and name', async () => {
    const { layouts, outcome } = await learnWith({ values: { ...CONFIRMED, supplier_code: '304567891' } });
    expect(outcome).toEqual({
      learnt: true,
      keys: [{ kind: 'VAT', value: 'LT119511515' }, { kind: 'CODE', value: '304567891' }, { kind: 'NAME', value: 'ACME TRADING' }],
      fields: expect.arrayContaining(['document_id', 'issue_date', 'amount_total']),
    });
    expect([...layouts.items.keys()]).toEqual(['c1|VAT#LT119511515', 'c1|CODE#304567891', 'c1|NAME#ACME TRADING']);
    const stored = layouts.items.get('c1|VAT#LT119511515')!;
    expect(stored).toMatchObject({ source_receipt_id: 'r1', learned_at: '2026-02-01T12:00:00.000Z', learned_by: 'u1', hint: { supplier: { vat_id: 'LT119511515', code: '304567891' }, dateFormat: 'MM/DD/YYYY' } });
    expect(stored.hint.fields.find((f) => f.field === 'document_id')!.labelWords).toEqual(['our', 'ref']);
  });

  it('learns an amount printed twice where the content says it was read', async () => {
    const lines = ['ACME TRADING UAB', 'PEN                    99.10', '', 'TOTAL                  99.10'];
    const layouts = memoryLayouts();
    const deps = { blobs: { readBoxes: async () => boxesOf(lines) }, layouts, clock };
    const totalRow = textDocument(lines).pages[0]!.lines[3]!.words[1]!.box;
    const doc = setValues(emptyContent(schema), [{ id: 'supplier_name', value: 'ACME TRADING UAB' }, { id: 'amount_total', value: '99.10', position: totalRow, page: 1 }]);
    await learnFromConfirmed(deps, { record: record(), content: doc, userId: 'u1' });
    const total = layouts.items.get('c1|NAME#ACME TRADING')!.hint.fields.find((f) => f.field === 'amount_total')!;
    expect(total.labelWords).toEqual(['total']);
    expect(total.box.top).toBeCloseTo(totalRow.top, 5);
  });

  const skipped: [string, Opts, string][] = [
    ['a sales invoice (issued by the company itself)', { record: { receipt_type: 'invoice' } }, 'not a cost document'],
    ['an unassigned document', { record: { company_id: null, scope: 'U#u1' } }, 'no company'],
    ['no supplier VAT ID, code or name', { values: { document_id: 'HF-100', issue_date: '2024-03-04' } }, 'no supplier identity'],
    ['no stored boxes', { boxes: undefined }, 'no page boxes'],
    ['boxes without words', { boxes: [{ page: 1, file: null, words: [], lines: [] }] }, 'no page boxes'],
    ['no confirmed value printed on the page', { values: { supplier_name: 'Someone Else', document_id: 'X-9' } }, 'no field found on the page'],
  ];
  it('a document confirmed again under another supplier forgets what it taught under the first; a confirm that learns nothing forgets it too', async () => {
    const layouts = memoryLayouts();
    const deps = { blobs: { readBoxes: async () => boxesOf(PRINTOUT) }, layouts, clock };
    await learnFromConfirmed(deps, { record: record(), content: content(CONFIRMED), userId: 'u1' });
    expect([...layouts.items.keys()]).toEqual(['c1|VAT#LT119511515', 'c1|NAME#ACME TRADING']);
    // Another document of the company and the same document id in another company are not this one's.
    const other = layouts.items.get('c1|VAT#LT119511515')!;
    await layouts.put('c1', [{ kind: 'NAME', value: 'KITA' }], { ...other, source_receipt_id: 'r2' });
    await layouts.put('c2', [{ kind: 'NAME', value: 'ACME TRADING' }], other);
    // Unarchived and confirmed again: the supplier was another.
    const again = await learnFromConfirmed(deps, { record: record({ version: 5 }), content: content({ ...CONFIRMED, supplier_name: 'Baltic Parts UAB', supplier_vat_id: '' }), userId: 'u1' });
    expect(again).toMatchObject({ learnt: true, keys: [{ kind: 'NAME', value: 'BALTIC PARTS' }] });
    expect([...layouts.items.keys()].sort()).toEqual(['c1|NAME#BALTIC PARTS', 'c1|NAME#KITA', 'c2|NAME#ACME TRADING']);
    // Confirmed a third time with nothing of it on the page: nothing is learnt, and the document's layout goes.
    const none = await learnFromConfirmed(deps, { record: record({ version: 7 }), content: content({ supplier_name: 'Someone Else', document_id: 'X-9' }), userId: 'u1' });
    expect(none).toEqual({ learnt: false, reason: 'no field found on the page' });
    expect([...layouts.items.keys()].sort()).toEqual(['c1|NAME#KITA', 'c2|NAME#ACME TRADING']);
  });

  it.each(skipped)('learns nothing from %s', async (_name, opts, reason) => {
    const { layouts, outcome } = await learnWith(opts);
    expect(outcome).toEqual({ learnt: false, reason });
    expect(layouts.items.size).toBe(0);
  });
});

describe('learning a receipt linked to a register supplier of another name', () => {
  const clock = { now: () => new Date('2026-02-01T12:00:00Z') };
  /** A shop that prints its trading name and no company numbers; the number after "Our ref", the date month first. */
  const shop = (order: string, date: string, ref: string, total: string) => ['KEDAI KOPI HONG LEE', 'Jalan Besar 12, Kuala Lumpur', '', `Order No.: ${order}        Date: ${date}`, `Our ref: ${ref}`, '', `TOTAL                  ${total}`];
  const FIRST = shop('PO-1', '03/04/2024', 'HF-100', '99.10');
  const SECOND = shop('PO-2', '05/07/2024', 'HF-200', '15.00');
  /** The first receipt as confirmed: the register's name written where the printed one was read, the register's code. */
  const confirmedAsRegister = (name: string) => {
    const printed = textDocument(FIRST).pages[0]!.lines[0]!;
    return setValues(content({ document_id: 'HF-100', issue_date: '2024-03-04', amount_total: '99.10', supplier_code: '201901000555' }), [{ id: 'supplier_name', value: name, position: printed.box, page: 1 }]);
  };
  const nextReceipt = () => {
    const doc = textDocument(SECOND);
    return toAnalyzeExpenseResult(doc, extractDocument(doc));
  };

  it('the next receipt of the shop, read by the name it prints, finds the layout; in that company only', async () => {
    const layouts = memoryLayouts();
    const outcome = await learnFromConfirmed({ blobs: { readBoxes: async () => boxesOf(FIRST) }, layouts, clock }, { record: record(), content: confirmedAsRegister('Hong Lee Kopitiam Sdn Bhd'), userId: 'u1' });
    expect(outcome).toMatchObject({ learnt: true, keys: [{ kind: 'CODE', value: '201901000555' }, { kind: 'NAME', value: 'HONG LEE KOPITIAM' }, { kind: 'NAME', value: 'KEDAI KOPI HONG LEE' }] });
    const result = nextReceipt();
    const keys = lookupKeys(mapExpenseToFields(result), printedText(result));
    const found = await layouts.find('c1', keys);
    expect(found).toHaveLength(1);
    expect(mapExpenseToFields(applyHintsToResult(result, found.map((l) => l.hint)))).toMatchObject({ document_id: { value: 'HF-200' }, issue_date: { value: '2024-05-07' } });
    expect(await layouts.find('c2', keys)).toEqual([]);
  });

  it('text read as the name that names no one of the register supplier\'s name is not a key', async () => {
    const layouts = memoryLayouts();
    const outcome = await learnFromConfirmed({ blobs: { readBoxes: async () => boxesOf(FIRST) }, layouts, clock }, { record: record(), content: confirmedAsRegister('Golden Bean Cafe'), userId: 'u1' });
    expect(outcome).toMatchObject({ learnt: true, keys: [{ kind: 'CODE', value: '201901000555' }, { kind: 'NAME', value: 'GOLDEN BEAN CAFE' }] });
  });
});

describe('editReceipt: a confirm learns, and never fails for learning', () => {
  function setup(opts: { failing?: boolean; readBoxesFails?: boolean } = {}) {
    let current = record();
    const stored = toStored(content(CONFIRMED));
    const ports: ContentPorts = {
      clock: { now: () => new Date('2026-02-01T12:00:00Z') },
      documents: {
        async load(caller, id) {
          if (id !== current.receipt_id || caller.companyId !== current.company_id) throw new AppError('NotFound', 'Not found');
          return structuredClone(current);
        },
        saveContent: async () => {
          throw new Error('not used: nothing is edited');
        },
        loadMany: async () => [],
      },
      blobs: {
        readContent: async () => structuredClone(stored),
        writeContent: async () => 'unused',
        readBoxes: async () => {
          if (opts.readBoxesFails) throw new Error('S3 is down');
          return boxesOf(PRINTOUT);
        },
        writeBoxes: async () => undefined,
      },
      settings: {
        getSchemaOverrides: async () => ({}),
        readSchemaOverrides: async () => ({ overrides: {}, version: 0 }),
        putSchemaOverrides: async () => true,
        getGridTemplate: async () => undefined,
        putGridTemplate: async () => undefined,
        getCompany: async () => undefined,
      },
    };
    const statuses: string[] = [];
    const workflow = {
      async changeStatus(_c: unknown, _id: string, status: string, version: number) {
        if (version !== current.version) throw new AppError('Conflict', 'stale');
        statuses.push(status);
        current = { ...current, status: status as DocumentRecord['status'], version: current.version + 1 };
        return toSummary(current);
      },
    };
    const logs: { level: string; msg: string; data?: Record<string, unknown> }[] = [];
    const layouts = memoryLayouts({ failing: opts.failing });
    const learning: ConfirmLearning = {
      layouts,
      log: { info: (msg, data) => void logs.push({ level: 'info', msg, data }), warn: (msg, data) => void logs.push({ level: 'warn', msg, data }) },
    };
    return { ports, workflow, learning, layouts, logs, statuses };
  }
  const caller = { userId: 'u1', companyId: 'c1' };

  it('CONFIRM archives the document and stores the supplier\'s layout', async () => {
    const s = setup();
    const res = await editReceipt(s.ports, s.workflow, caller, 'r1', { version: 3 }, true, s.learning);
    expect(res.receipt.status).toBe('archive');
    expect(s.layouts.items.has('c1|VAT#LT119511515')).toBe(true);
    expect(s.logs).toEqual([{ level: 'info', msg: 'supplier layout learnt', data: { receipt_id: 'r1', keys: ['VAT', 'NAME'], fields: expect.arrayContaining(['document_id']) } }]);
  });

  it.each([
    ['the layout store fails', { failing: true }, 'layout store is down'],
    ['the boxes cannot be read', { readBoxesFails: true }, 'S3 is down'],
  ])('the confirm still succeeds when %s; the failure is logged', async (_name, opts, error) => {
    const s = setup(opts);
    const res = await editReceipt(s.ports, s.workflow, caller, 'r1', { version: 3 }, true, s.learning);
    expect(res.receipt.status).toBe('archive');
    expect(s.statuses).toEqual(['archive']);
    expect(s.layouts.items.size).toBe(0);
    expect(s.logs).toEqual([{ level: 'warn', msg: 'learning the supplier layout failed', data: { receipt_id: 'r1', error } }]);
  });

  it.each([
    ['Review', {}],
    ['REJECT', { receipt_status: 'rejected' as const }],
  ])('%s learns nothing', async (_name, extra) => {
    const s = setup();
    const res = await editReceipt(s.ports, s.workflow, caller, 'r1', { version: 3, ...extra }, false, s.learning);
    expect(res.receipt.status).not.toBe('archive');
    expect(s.layouts.items.size).toBe(0);
    expect(s.logs).toEqual([]);
  });
});
