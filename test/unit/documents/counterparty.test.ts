/** Documents and master data: the party and the line items matched to the company's register (counterparty.ts, match.ts). */
import { PDFDocument } from 'pdf-lib';
import { ulid } from 'ulid';
import { describe, expect, it } from 'vitest';
import { newCompanyRecord } from '../../../lambdas/core/accounts/companies';
import { buildContentFromExtraction } from '../../../lambdas/core/content/build';
import { valueOf } from '../../../lambdas/core/content/tree';
import { swapCounterpartyContent } from '../../../lambdas/core/documents/content';
import {
  applyStakeholderToContent,
  ITEM_LOOKUP_WORDS,
  lineWords,
  matchCounterparty,
  matchLineItemsToRegister,
  matchParty,
  MAX_LOOKUPS,
  partyKeysOfContent,
} from '../../../lambdas/core/documents/counterparty';
import { handleObjectCreated } from '../../../lambdas/core/documents/intake';
import type { ProcessingDeps } from '../../../lambdas/core/documents/processing';
import { requestUpload } from '../../../lambdas/core/documents/upload';
import { toAnalyzeExpenseResult } from '../../../lambdas/core/recognition/expense';
import { extractDocument } from '../../../lambdas/core/recognition/extract/index';
import { containsPhrase, matchItem, NAME_CANDIDATE_WORDS } from '../../../lambdas/core/recognition/match';
import type { ExtractedFields, FieldValue } from '../../../lambdas/core/recognition/types';
import { uploadDocumentQuerySchema } from '../../../shared/schemas/receipts';
import type { StakeholderDateFormat } from '../../../shared/schemas/master-data';
import { categoryRecord, countingStore, itemRecord, seed, stakeholderRecord, type CountingStore } from '../../support/master-data-records';
import { textDocument } from '../recognition/helpers';
import { fakeRenderer, liveRecorder, memoryAccounts, MemoryDocuments, MemoryFiles, memoryLayouts, noOfficeConverter, scriptedRecogniser } from './fakes';

const C = 'company-1';
const fv = (value: string, confidence = 80): FieldValue => ({ value, page: 1, box: { left: 0.1, top: 0.1, width: 0.2, height: 0.02 }, confidence });
const fields = (f: Partial<ExtractedFields>): ExtractedFields => ({ vat_lines: [], line_items: [], ...f });

function register() {
  const store = countingStore();
  seed(store, { stakeholders: [stakeholderRecord(C, { id: 's-vat', name: 'Vatco UAB', code: '111111111', vat_id: 'LT100000001' })] });
  seed(store, { stakeholders: [stakeholderRecord(C, { id: 's-code', name: 'Codeco UAB', code: '222222222', vat_id: '' })] });
  seed(store, { stakeholders: [stakeholderRecord(C, { id: 's-name', name: 'Namesake Trading Sdn Bhd', code: 'N-1' })] });
  seed(store, { stakeholders: [stakeholderRecord(C, { id: 'c-1', type: 'customer', name: 'Buyer Ltd', code: '333333333' })] });
  seed(store, { stakeholders: [stakeholderRecord('company-2', { id: 'other', name: 'Vatco UAB', code: '111111111', vat_id: 'LT100000009' })] });
  return store;
}

describe('matching the party against the register', () => {
  it('takes the VAT ID first, then the code, then the normalised name', async () => {
    const store = register();
    // VAT ID of one, code and name of others: the VAT ID wins.
    const byVat = await matchCounterparty(store, C, 'receipt', fields({ supplier_vat_id: fv('LT 100000001'), supplier_code: fv('222222222'), supplier_name: fv('Namesake Trading') }));
    expect(byVat).toMatchObject({ by: 'vat_id', stakeholder: { id: 's-vat' } });
    const byCode = await matchCounterparty(store, C, 'receipt', fields({ supplier_vat_id: fv('LT999999999'), supplier_code: fv('222 222 222'), supplier_name: fv('Namesake Trading') }));
    expect(byCode).toMatchObject({ by: 'code', stakeholder: { id: 's-code' } });
    // Legal forms, case and punctuation are ignored in names.
    const byName = await matchCounterparty(store, C, 'receipt', fields({ supplier_name: fv('NAMESAKE TRADING SDN. BHD.') }));
    expect(byName).toMatchObject({ by: 'name', stakeholder: { id: 's-name' } });
  });

  it('matches a VAT ID printed without its country prefix', async () => {
    const store = countingStore();
    seed(store, { stakeholders: [stakeholderRecord(C, { id: 's', name: 'Prefixless', code: 'P-1', vat_id: '100000001' })] });
    expect(await matchCounterparty(store, C, 'receipt', fields({ supplier_vat_id: fv('LT100000001') }))).toMatchObject({ by: 'vat_id', stakeholder: { id: 's' } });
  });

  it('finds a name read with an OCR slip among a bounded page of candidates', async () => {
    const store = register();
    const m = await matchCounterparty(store, C, 'receipt', fields({ supplier_name: fv('Namesoke Trading') }));
    expect(m).toMatchObject({ by: 'name', stakeholder: { id: 's-name' } });
  });

  it('a cost document matches suppliers, a sales document customers; another company matches nothing', async () => {
    const store = register();
    expect(await matchCounterparty(store, C, 'invoice', fields({ customer_code: fv('333333333') }))).toMatchObject({ stakeholder: { id: 'c-1', type: 'customer' } });
    expect(await matchCounterparty(store, C, 'invoice', fields({ customer_code: fv('222222222') }))).toBeUndefined();
    expect(await matchCounterparty(store, 'company-3', 'receipt', fields({ supplier_vat_id: fv('LT100000001'), supplier_name: fv('Vatco UAB') }))).toBeUndefined();
  });

  it('stays within a fixed number of look-ups whatever the register holds', async () => {
    const store = register();
    for (let i = 0; i < 500; i++) seed(store, { stakeholders: [stakeholderRecord(C, { id: `x${i}`, name: `Trading House ${i}`, code: `X${i}` })] });
    store.calls = {};
    const m = await matchCounterparty(store, C, 'receipt', fields({ supplier_vat_id: fv('LT123456789'), supplier_code: fv('999999999'), supplier_name: fv('Unknown Northern House Logistics Trading Company') }));
    expect(m).toBeUndefined();
    // VAT ID (with and without prefix), code, name, a page of candidates for each of the three longest words.
    expect(store.totalCalls()).toBe(4 + NAME_CANDIDATE_WORDS);
    expect(store.calls.listStakeholders).toBe(NAME_CANDIDATE_WORDS);
    expect(store.totalCalls()).toBeLessThanOrEqual(MAX_LOOKUPS);
  });

  it('finds a name read with an OCR slip among many suppliers that share its other word', async () => {
    const store = register();
    for (let i = 0; i < 40; i++) seed(store, { stakeholders: [stakeholderRecord(C, { id: `t${i}`, name: `${String.fromCharCode(65 + (i % 26))}${'a'.repeat(1 + Math.floor(i / 26))} Transportas`, code: `T${i}` })] });
    seed(store, { stakeholders: [stakeholderRecord(C, { id: 'zuikis', name: 'Transportas Žuikis UAB', code: '333333333' })] });
    expect(await matchCounterparty(store, C, 'receipt', fields({ supplier_name: fv('Transportas Žuiklis UAB') }))).toMatchObject({ by: 'name', stakeholder: { id: 'zuikis' } });
    // A name of those it shares a word with is not taken for it.
    expect(await matchCounterparty(store, C, 'receipt', fields({ supplier_name: fv('Transportas Vilkas UAB') }))).toBeUndefined();
  });

  it('of suppliers sharing a VAT ID, takes the one of the document code; a VAT ID without country letters finds the LT one', async () => {
    const store = countingStore();
    seed(store, {
      stakeholders: [
        stakeholderRecord(C, { id: 'alfa', name: 'Alfa Trade UAB', code: '111111111', vat_id: 'LT999999999', created_at: '2025-01-01T00:00:00.000Z' }),
        stakeholderRecord(C, { id: 'logistika', name: 'Alfa Trade Logistika UAB', code: '222222222', vat_id: 'LT999999999', created_at: '2025-06-01T00:00:00.000Z' }),
        stakeholderRecord(C, { id: 'azuolas', name: 'UAB „Ąžuolų šilas“', code: '0012345', vat_id: 'LT100001234567' }),
      ],
    });
    const vat = fv('LT999999999');
    expect(await matchCounterparty(store, C, 'receipt', fields({ supplier_vat_id: vat, supplier_code: fv('222222222'), supplier_name: fv('Alfa Trade Logistika UAB') }))).toMatchObject({ by: 'vat_id', stakeholder: { id: 'logistika' } });
    expect(await matchCounterparty(store, C, 'receipt', fields({ supplier_vat_id: vat, supplier_name: fv('Alfa Trade Logistika UAB') }))).toMatchObject({ by: 'vat_id', stakeholder: { id: 'logistika' } });
    expect(await matchCounterparty(store, C, 'receipt', fields({ supplier_vat_id: vat, supplier_name: fv('Kažkas') }))).toMatchObject({ by: 'vat_id', stakeholder: { id: 'alfa' } });
    expect(await matchCounterparty(store, C, 'receipt', fields({ supplier_vat_id: fv('100001234567'), supplier_name: fv('Nepažįstamas') }))).toMatchObject({ by: 'vat_id', stakeholder: { id: 'azuolas' } });
  });

  it('looks nothing up when nothing identifies the party', async () => {
    const store = register();
    store.calls = {};
    expect(await matchCounterparty(store, C, 'receipt', fields({ document_id: fv('INV-1') }))).toBeUndefined();
    expect(store.totalCalls()).toBe(0);
  });
});

describe('line items and the item register', () => {
  it('matches a line by one of the item\'s words (whole words, accents and case ignored); the longest word wins', () => {
    const catalogue = [
      { id: 'fuel', name: 'Fuel', words: ['diesel', 'benzinas'] },
      { id: 'premium', name: 'Premium fuel', words: ['diesel premium'] },
    ];
    expect(matchItem({ description: 'DIESEL 12.3 L' }, catalogue)).toMatchObject({ isNew: false, by: 'item_word', item: { id: 'fuel' } });
    expect(matchItem({ description: 'Diesel Premium 10 L' }, catalogue)).toMatchObject({ isNew: false, by: 'item_word', item: { id: 'premium' } });
    expect(matchItem({ description: 'Dieselis' }, catalogue)).toMatchObject({ isNew: true });
    expect(containsPhrase('Kava su pienu', 'KAVA')).toBe(true);
    expect(containsPhrase('Kavamatas', 'kava')).toBe(false);
  });

  it('sets a matched line\'s description to the item\'s name with one bounded look-up', async () => {
    const store = countingStore();
    await store.putItem(itemRecord(C, 'Fuel', ['diesel']));
    await store.putItem(itemRecord(C, 'Coffee', ['kava', 'espresso']));
    await store.putItem(itemRecord('company-2', 'Other', ['bread']));
    store.calls = {};
    const f = fields({ line_items: [{ description: fv('DIESEL 40 L') }, { description: fv('Espresso doppio') }, { description: fv('Bread') }, { total_price: fv('1.00') }] });
    const out = await matchLineItemsToRegister(store, C, f);
    expect(out.matched).toBe(2);
    expect(out.fields.line_items.map((l) => l.description?.value)).toEqual(['Fuel', 'Coffee', 'Bread', undefined]);
    // The place on the page is kept.
    expect(out.fields.line_items[0]!.description!.box).toEqual(f.line_items[0]!.description!.box);
    expect(store.totalCalls()).toBe(1);
  });

  it('sends at most 20 distinct words of the descriptions', () => {
    const many = fields({ line_items: Array.from({ length: 30 }, (_, i) => ({ description: fv(`word${i}a word${i}b 12`) })) });
    const words = lineWords(many);
    expect(words).toHaveLength(ITEM_LOOKUP_WORDS);
    expect(ITEM_LOOKUP_WORDS).toBe(20);
    expect(new Set(words).size).toBe(20);
    expect(words).not.toContain('12');
  });
});

describe('content and the matched stakeholder', () => {
  it('writes the register\'s name, code and VAT ID, fills empty address fields and the date format', () => {
    const content = buildContentFromExtraction(fields({ supplier_name: fv('ACME TRADING'), supplier_address: fv('Printed street 1') }));
    const s = stakeholderRecord(C, { id: 's', name: 'Acme Trading UAB', code: '123456789', vat_id: 'LT123456789', street: 'Register street 2', city: 'Vilnius', country: 'LT', selected_date_format: 'MM/DD/YYYY' });
    const out = applyStakeholderToContent(content, s);
    expect(['name', 'code', 'vat_id', 'street', 'city', 'country', 'date_format'].map((f) => valueOf(out, `supplier_${f}`))).toEqual([
      'Acme Trading UAB',
      '123456789',
      'LT123456789',
      'Printed street 1',
      'Vilnius',
      'LT',
      'MM/DD/YYYY',
    ]);
  });

  it('a type change moves the supplier to the customer side and it is matched against the customers', async () => {
    const store = register();
    const content = buildContentFromExtraction(fields({ supplier_name: fv('Buyer Ltd'), supplier_code: fv('333333333') }));
    const swapped = swapCounterpartyContent(content);
    expect(valueOf(swapped, 'supplier_name')).toBe('');
    expect(partyKeysOfContent(swapped, 'customer')).toEqual({ name: 'Buyer Ltd', code: '333333333' });
    expect(await matchParty(store, C, 'customer', partyKeysOfContent(swapped, 'customer'))).toMatchObject({ stakeholder: { id: 'c-1' } });
    expect(await matchParty(store, C, 'supplier', partyKeysOfContent(swapped, 'customer'))).toBeUndefined();
  });
});

/** A supplier that prints dates with numbers only; 03/04/2024 reads either way. */
const SLIP = ['DATEFMT TRADING UAB', 'VAT ID: LT119511515', '', 'Invoice No.: DF-7        Date: 03/04/2024', '', 'TOTAL                  15.00'];

async function processWith(store: CountingStore, q: { company_id?: string; receipt_type?: 'receipt' | 'invoice' } = {}, lines: string[] = SLIP) {
  const clock = { now: () => new Date('2026-06-01T10:00:00Z') };
  const ids = { newId: () => ulid() };
  const company = { ...newCompanyRecord({ name: 'Mano', code: '300000001' }, { id: 'u1', name: 'Test', surname: 'User', email: 'u@x' }, ids, clock), company_id: C, available_documents: 10 };
  const documents = new MemoryDocuments();
  const files = new MemoryFiles();
  const live = liveRecorder();
  const accounts = memoryAccounts(company);
  const doc = textDocument(lines);
  const deps: ProcessingDeps = {
    documents,
    files,
    store: accounts,
    live,
    clock,
    ids,
    layouts: memoryLayouts(),
    masterData: store,
    schemas: { getSchemaOverrides: async () => ({}) },
    renderer: fakeRenderer,
    office: noOfficeConverter,
    recogniser: async () => scriptedRecogniser(toAnalyzeExpenseResult(doc, extractDocument(doc))),
    log: { info: () => undefined, warn: () => undefined },
  };
  const pdf = await PDFDocument.create();
  pdf.addPage();
  const bytes = await pdf.save();
  const companyId = q.company_id ?? company.company_id;
  const query = uploadDocumentQuerySchema.parse({ company_id: companyId, receipt_type: q.receipt_type, original_file_name: 'slip.pdf', size: String(bytes.length) });
  const caller = { userId: 'u1', companyId: companyId === 'NONE' ? undefined : company.company_id, role: 'admin' as const };
  const res = await requestUpload({ documents, files, store: accounts, live, clock, ids }, caller, query);
  await files.put(res.key, bytes, 'application/pdf');
  store.calls = {};
  await handleObjectCreated(deps, { key: res.key }, { final: true });
  const [record] = [...documents.docs.values()];
  const content = record!.content_key ? await files.getJson<{ items: unknown }>(record!.content_key) : undefined;
  return { record: record!, content };
}

describe('processing with the company\'s register', () => {
  const supplier = (companyId: string, format: StakeholderDateFormat | null) =>
    stakeholderRecord(companyId, { id: 'sup-1', name: 'Datefmt Trading UAB', code: '304050607', vat_id: 'LT119511515', category_id: 'cat-1', selected_date_format: format });

  it.each([
    ['MM/DD/YYYY', '2024-03-04'],
    ['DD/MM/YYYY', '2024-04-03'],
  ] as const)('a supplier matched by VAT ID sets stakeholder, category and its date format %s reads 03/04/2024 as %s', async (format, iso) => {
    const store = countingStore();
    seed(store, { stakeholders: [supplier(C, format)] });
    seed(store, { categories: [categoryRecord(C, { id: 'cat-1', name: 'Office supplies' })] });
    const run = await processWith(store);
    expect(run.record).toMatchObject({
      stakeholder_id: 'sup-1',
      category_id: 'cat-1',
      category: 'Office supplies',
      stakeholder_date_format: format,
      issue_date: iso,
      counterparty_name: 'Datefmt Trading UAB',
    });
    // Supplier by VAT ID (1) and its category (1); the slip has no line items.
    expect(store.totalCalls()).toBeLessThanOrEqual(MAX_LOOKUPS);
    expect(store.calls).toEqual({ sameVatStakeholders: 1, getCategory: 1 });
    expect(JSON.stringify(run.content)).toContain(format);
  });

  it('without a date format an ambiguous date is read day first, and no stakeholder is set', async () => {
    const store = countingStore();
    const run = await processWith(store);
    expect(run.record).toMatchObject({ stakeholder_id: null, issue_date: '2024-04-03', stakeholder_date_format: null });
  });

  it('an unassigned document matches nothing', async () => {
    const store = countingStore();
    const run = await processWith(store, { company_id: 'NONE' });
    expect(run.record).toMatchObject({ status: 'unassigned', stakeholder_id: null });
    expect(store.totalCalls()).toBe(0);
  });
});

/** A coffee shop's receipt that the ready rule passes on its own: number, date, and a sub-total and tax that make the total. */
const SHOP = ['KEDAI KOPI HONG LEE', '', 'Receipt No.: HL-1001      Date: 15/04/2024', '', 'SUBTOTAL               10.00', 'TAX                     0.60', 'TOTAL                  10.60'];

describe('a supplier matched by a name only nearly equal', () => {
  it('the receipt alone is ready with its printed name', async () => {
    const run = await processWith(countingStore(), {}, SHOP);
    expect(run.record).toMatchObject({ status: 'ready', stakeholder_id: null, counterparty_name: 'KEDAI KOPI HONG LEE' });
  });

  it('a registered shop of a similar name is suggested, not made sure: the receipt waits for review', async () => {
    const store = countingStore();
    seed(store, { stakeholders: [stakeholderRecord(C, { id: 'hong-kee', name: 'Kedai Kopi Hong Kee', code: '201901000123' })] });
    const run = await processWith(store, {}, SHOP);
    expect(run.record).toMatchObject({ stakeholder_id: 'hong-kee', counterparty_name: 'Kedai Kopi Hong Kee', status: 'review' });
  });

  it('the same name once normalised (case, punctuation, legal form) is sure: the receipt is ready', async () => {
    const store = countingStore();
    seed(store, { stakeholders: [stakeholderRecord(C, { id: 'hong-lee', name: 'Kedai Kopi Hong Lee Sdn. Bhd.', code: '201901000124' })] });
    const run = await processWith(store, {}, SHOP);
    expect(run.record).toMatchObject({ stakeholder_id: 'hong-lee', counterparty_name: 'Kedai Kopi Hong Lee Sdn. Bhd.', status: 'ready' });
  });
});
