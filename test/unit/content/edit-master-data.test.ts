/** The edit actions and master data: the document's category, and the party linked to the register on confirm. */
import { describe, expect, it } from 'vitest';
import { AppError } from '../../../shared/errors';
import { buildContentFromExtraction } from '../../../lambdas/core/content/build';
import { categoryPatch, confirmedCategory, confirmedDateFormat, confirmStakeholder, stakeholderFromContent, type EditMasterData } from '../../../lambdas/core/content/edit-master-data';
import { setValues, valueOf } from '../../../lambdas/core/content/tree';
import { applyStakeholderToContent } from '../../../lambdas/core/documents/counterparty';
import type { DocumentRecord } from '../../../lambdas/core/documents/types';
import type { FieldValue } from '../../../lambdas/core/recognition/types';
import type { CreateStakeholderInput } from '../../../shared/schemas/master-data';
import { categoryRecord, countingStore, seed, stakeholderRecord } from '../../support/master-data-records';

const C = 'company-1';
const fv = (value: string): FieldValue => ({ value, page: 1, box: { left: 0.1, top: 0.1, width: 0.2, height: 0.02 }, confidence: 95 });
const record = (partial: Partial<DocumentRecord> = {}) => ({ receipt_id: 'r1', company_id: C, receipt_type: 'receipt', ...partial }) as DocumentRecord;

function md() {
  const store = countingStore();
  const created: CreateStakeholderInput[] = [];
  const ports: EditMasterData = {
    store,
    setMasterData: async () => {
      throw new Error('not used here');
    },
    ensureStakeholder: async (companyId, type, input) => {
      created.push(input);
      const s = stakeholderRecord(companyId, {
        id: `new-${created.length}`,
        type,
        name: input.name,
        code: input.code,
        vat_id: input.vat_id ?? '',
        selected_date_format: input.selected_date_format ?? null,
        category_id: input.category_id ?? null,
      });
      await store.putStakeholder(s);
      return { stakeholder: s, created: true };
    },
  };
  return { store, created, ports };
}

describe('the document\'s category on an edit', () => {
  it('takes a category of the document\'s company, by id or by its code; null removes it; nothing given changes nothing', async () => {
    const { store } = md();
    seed(store, { categories: [categoryRecord(C, { id: 'cat-1', name: 'Travel', category_code: 'TR-9' }), categoryRecord('company-2', { id: 'cat-2', name: 'Theirs' })] });
    expect(await categoryPatch(store, record(), { category_id: 'cat-1' })).toEqual({ category_id: 'cat-1', category: 'Travel', external_category_id: null });
    expect(await categoryPatch(store, record(), { external_category_id: 'tr 9' })).toEqual({ category_id: 'cat-1', category: 'Travel', external_category_id: 'tr 9' });
    expect(await categoryPatch(store, record(), { category_id: null })).toEqual({ category_id: null, category: null, external_category_id: null });
    expect(await categoryPatch(store, record(), {})).toBeUndefined();
  });

  it.each([
    ['another company\'s category', { category_id: 'cat-2' }, record()],
    ['an unknown id', { category_id: 'nope' }, record()],
    ['an unknown code', { external_category_id: 'XX' }, record()],
    ['an unassigned document', { category_id: 'cat-1' }, record({ company_id: null })],
  ])('refuses %s with a field error (422)', async (_name, input, doc) => {
    const { store } = md();
    seed(store, { categories: [categoryRecord(C, { id: 'cat-1', name: 'Travel' }), categoryRecord('company-2', { id: 'cat-2', name: 'Theirs' })] });
    const error = await categoryPatch(store, doc, input).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ kind: 'ValidationFailed', details: [{ path: [Object.keys(input)[0]], message: 'Choose a category from the list' }] });
  });
});

describe('the party on confirm', () => {
  const content = (f: Record<string, string>) => buildContentFromExtraction({ vat_lines: [], line_items: [], ...Object.fromEntries(Object.entries(f).map(([k, v]) => [k, fv(v)])) });

  it('links a party the register knows (by code), creating nothing', async () => {
    const { store, created, ports } = md();
    seed(store, { stakeholders: [stakeholderRecord(C, { id: 's1', name: 'Known UAB', code: '304050607', selected_date_format: 'DD/MM/YYYY' })] });
    const out = await confirmStakeholder(ports, record(), content({ supplier_name: 'Some other spelling', supplier_code: '304 050 607' }));
    // The document takes the register's name and date format of the party.
    expect(out).toEqual({ linked: 'matched', stakeholderId: 's1', patch: { stakeholder_id: 's1', stakeholder_date_format: 'DD/MM/YYYY' }, content: { supplier_name: 'Known UAB', supplier_date_format: 'DD/MM/YYYY' } });
    expect(created).toEqual([]);
  });

  it('creates a new party from the content, the VAT ID standing in for a missing code; a sales document creates a customer', async () => {
    const { created, ports } = md();
    const withDate = setValues(content({ supplier_name: 'Brand New UAB', supplier_vat_id: 'LT100002222222', supplier_address: 'Gedimino pr. 1' }), [{ id: 'supplier_date_format', value: 'MM/DD/YYYY' }]);
    const out = await confirmStakeholder(ports, record(), withDate);
    expect(out).toMatchObject({ linked: 'created', patch: { stakeholder_id: 'new-1', stakeholder_date_format: 'MM/DD/YYYY' } });
    expect(created[0]).toMatchObject({ type: 'supplier', name: 'Brand New UAB', code: 'LT100002222222', vat_id: 'LT100002222222', street: 'Gedimino pr. 1', selected_date_format: 'MM/DD/YYYY' });
    const sale = await confirmStakeholder(ports, record({ receipt_type: 'invoice' }), content({ customer_name: 'Buyer Ltd', customer_code: '999' }));
    expect(sale).toMatchObject({ linked: 'created' });
    expect(created[1]).toMatchObject({ type: 'customer', name: 'Buyer Ltd', code: '999' });
  });

  it('creates nothing for a party without a code or VAT ID, a one-letter name, or an unassigned document', async () => {
    const { created, ports } = md();
    expect(await confirmStakeholder(ports, record(), content({ supplier_name: 'No Code Shop' }))).toMatchObject({ linked: 'none' });
    expect(await confirmStakeholder(ports, record(), content({ supplier_name: 'X', supplier_code: '123' }))).toMatchObject({ linked: 'none' });
    expect(await confirmStakeholder(ports, record({ company_id: null }), content({ supplier_name: 'Any UAB', supplier_code: '123' }))).toMatchObject({ linked: 'none', reason: 'unassigned' });
    expect(created).toEqual([]);
    // A country that is not on the list is left out rather than losing the party.
    expect(stakeholderFromContent(setValues(content({ supplier_name: 'Far Away', supplier_code: 'FA-1' }), [{ id: 'supplier_country', value: 'ZZ' }]), 'supplier')).toMatchObject({ name: 'Far Away', code: 'FA-1' });
  });
});

describe('the register on confirm: the date format follows the latest word, a deleted category is refused', () => {
  const content = (f: Record<string, string>) => buildContentFromExtraction({ vat_lines: [], line_items: [], ...Object.fromEntries(Object.entries(f).map(([k, v]) => [k, fv(v)])) });
  const withFormat = (format: string) => setValues(content({ supplier_name: 'Known UAB', supplier_code: '304050607' }), [{ id: 'supplier_date_format', value: format }]);
  const supplier = stakeholderRecord(C, { id: 's1', name: 'Known UAB', code: '304050607', selected_date_format: 'DD/MM/YYYY' });
  const printed = (order: 'DD/MM/YYYY' | 'MM/DD/YYYY' | undefined) => ({ printedOrder: async () => order });

  it('a format set on the document wins; the format the register gave it does not, nor an empty one', async () => {
    const read = record({ stakeholder_date_format: 'DD/MM/YYYY' });
    expect(await confirmedDateFormat(read, withFormat('MM/DD/YYYY'), supplier, printed(undefined))).toBe('MM/DD/YYYY');
    expect(await confirmedDateFormat(read, withFormat('DD/MM/YYYY'), supplier, printed(undefined))).toBeUndefined();
    expect(await confirmedDateFormat(read, content({ supplier_name: 'Known UAB' }), supplier, printed(undefined))).toBeUndefined();
    // The register changed since the upload: the format the document was given does not set it back
    expect(await confirmedDateFormat(read, withFormat('DD/MM/YYYY'), { ...supplier, selected_date_format: 'MM/DD/YYYY' }, printed(undefined))).toBeUndefined();
  });

  it('a corrected date order contradicting the format the document was read with changes it; one confirmed as read does not', async () => {
    const read = record({ stakeholder_date_format: 'DD/MM/YYYY' });
    expect(await confirmedDateFormat(read, withFormat('DD/MM/YYYY'), supplier, printed('MM/DD/YYYY'))).toBe('MM/DD/YYYY');
    expect(await confirmedDateFormat(read, withFormat('DD/MM/YYYY'), supplier, printed('DD/MM/YYYY'))).toBeUndefined();
    // Read under a format the register no longer has, confirmed as read: no word about the register's
    expect(await confirmedDateFormat(read, withFormat('DD/MM/YYYY'), { ...supplier, selected_date_format: 'MM/DD/YYYY' }, printed('DD/MM/YYYY'))).toBeUndefined();
    // Not read with a register format, or a sales document: the learnt layout is not overridden, nothing to correct
    expect(await confirmedDateFormat(record(), content({ supplier_name: 'Known UAB' }), supplier, printed('MM/DD/YYYY'))).toBeUndefined();
    expect(await confirmedDateFormat(record({ stakeholder_date_format: 'DD/MM/YYYY', receipt_type: 'invoice' }), content({}), { ...supplier, type: 'customer' }, printed('MM/DD/YYYY'))).toBeUndefined();
  });

  it('confirmStakeholder writes the confirmed format to the matched stakeholder and the document takes it', async () => {
    const { store, ports } = md();
    seed(store, { stakeholders: [supplier] });
    const written: string[] = [];
    ports.setDateFormat = async (s, format) => {
      written.push(format);
      return { ...s, selected_date_format: format, version: s.version + 1 };
    };
    const out = await confirmStakeholder(ports, record({ stakeholder_date_format: 'DD/MM/YYYY' }), withFormat('MM/DD/YYYY'));
    expect(written).toEqual(['MM/DD/YYYY']);
    expect(out).toEqual({ linked: 'matched', stakeholderId: 's1', patch: { stakeholder_id: 's1', stakeholder_date_format: 'MM/DD/YYYY' }, content: {} });
  });

  it('a category deleted from the register is refused under category_id; a renamed one gives its current name', async () => {
    const { store } = md();
    seed(store, { categories: [categoryRecord(C, { id: 'cat-1', name: 'Software licences' })] });
    expect(await confirmedCategory(store, record({ category_id: 'cat-1', category: 'Software' }))).toEqual({ category: 'Software licences' });
    expect(await confirmedCategory(store, record({ category_id: 'cat-1', category: 'Software licences' }))).toBeUndefined();
    expect(await confirmedCategory(store, record({ category_id: null }))).toBeUndefined();
    const error = await confirmedCategory(store, record({ category_id: 'deleted', category: 'Travel costs' })).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'ValidationFailed', details: [{ path: ['category_id'], message: 'Choose a category from the list' }] });
  });
});

describe('a confirm of a name typed over the supplier the machine linked', () => {
  const hongKee = stakeholderRecord(C, { id: 'hong-kee', name: 'Kedai Kopi Hong Kee', code: '201901000123', vat_id: 'MY-HK-778899' });
  /** A receipt the machine linked to a supplier of the register: its name, code and VAT ID put in from the register, the name over the one read. */
  const linkedContent = (printed: Record<string, string> = {}, s = hongKee) =>
    applyStakeholderToContent(buildContentFromExtraction({ vat_lines: [], line_items: [], supplier_name: fv(s.name), ...Object.fromEntries(Object.entries(printed).map(([k, v]) => [k, fv(v)])) }), s);
  const typed = (c: ReturnType<typeof linkedContent>, name: string) => setValues(c, [{ id: 'supplier_name', value: name }]);
  const linked = record({ stakeholder_id: 'hong-kee' });

  it('the typed name stays and the link goes with the register\'s code and VAT ID; nothing is created without a number of its own', async () => {
    const { store, created, ports } = md();
    seed(store, { stakeholders: [hongKee] });
    const c = typed(linkedContent(), 'KEDAI KOPI HONG LEE');
    expect(valueOf(c, 'supplier_code')).toBe('201901000123');
    const out = await confirmStakeholder(ports, linked, c);
    expect(out).toEqual({
      linked: 'none',
      reason: 'the typed party has no code or VAT ID of its own',
      patch: { stakeholder_id: null, stakeholder_date_format: null },
      content: { supplier_code: '', supplier_vat_id: '' },
    });
    expect(created).toEqual([]);
  });

  it('a typed name of another supplier of the register links that one, with its numbers', async () => {
    const { store, ports } = md();
    seed(store, { stakeholders: [hongKee, stakeholderRecord(C, { id: 'hong-lee', name: 'Kedai Kopi Hong Lee Sdn Bhd', code: '201901000124' })] });
    const out = await confirmStakeholder(ports, linked, typed(linkedContent(), 'KEDAI KOPI HONG LEE'));
    expect(out).toMatchObject({ linked: 'matched', stakeholderId: 'hong-lee', content: { supplier_name: 'Kedai Kopi Hong Lee Sdn Bhd', supplier_code: '201901000124', supplier_vat_id: '' } });
  });

  it('a VAT ID printed on the page stays and makes the typed party a new supplier', async () => {
    const { store, created, ports } = md();
    // A supplier of the register without a VAT ID: a printed one does not contradict it.
    const noVat = { ...hongKee, vat_id: '' };
    seed(store, { stakeholders: [noVat] });
    const c = typed(linkedContent({ supplier_vat_id: 'MY-HL-112233' }, noVat), 'KEDAI KOPI HONG LEE');
    const out = await confirmStakeholder(ports, linked, c);
    expect(out).toMatchObject({ linked: 'created', content: { supplier_code: '' } });
    expect(created).toEqual([expect.objectContaining({ name: 'KEDAI KOPI HONG LEE', code: 'MY-HL-112233', vat_id: 'MY-HL-112233' })]);
  });

  it('the link stands for a code printed on the page, a name not typed (the register renamed since), or the same name spelled otherwise', async () => {
    const { store, ports } = md();
    seed(store, { stakeholders: [hongKee] });
    // The code was read on the page: it names the supplier, and the register's name is written (a typed code does too).
    expect(await confirmStakeholder(ports, linked, typed(linkedContent({ supplier_code: '201901000123' }), 'Hong Lee Coffee'))).toMatchObject({ linked: 'matched', stakeholderId: 'hong-kee' });
    // The name the machine put there, the register renamed meanwhile: the document takes the new name.
    seed(store, { stakeholders: [{ ...hongKee, name: 'Hong Kee Kopitiam' }] });
    expect(await confirmStakeholder(ports, linked, linkedContent())).toMatchObject({ linked: 'matched', stakeholderId: 'hong-kee', content: { supplier_name: 'Hong Kee Kopitiam' } });
    expect(await confirmStakeholder(ports, linked, typed(linkedContent(), 'hong kee kopitiam sdn. bhd.'))).toMatchObject({ linked: 'matched', stakeholderId: 'hong-kee' });
  });
});

describe('what a confirm teaches the register: the document\'s category', () => {
  const content = (f: Record<string, string>) => buildContentFromExtraction({ vat_lines: [], line_items: [], ...Object.fromEntries(Object.entries(f).map(([k, v]) => [k, fv(v)])) });
  const known = stakeholderRecord(C, { id: 's1', name: 'Known UAB', code: '304050607' });
  const categories = [categoryRecord(C, { id: 'cat-1', name: 'Travel' }), categoryRecord(C, { id: 'cat-2', name: 'Fuel' })];
  function withCategoryWrites() {
    const m = md();
    const written: { id: string; category: string }[] = [];
    m.ports.setCategory = async (s, categoryId) => {
      written.push({ id: s.id, category: categoryId });
      return { ...s, category_id: categoryId, version: s.version + 1 };
    };
    seed(m.store, { categories });
    return { ...m, written };
  }

  it('a supplier the confirm creates takes the document\'s category; without one it has none', async () => {
    const { created, ports, written } = withCategoryWrites();
    const party = content({ supplier_name: 'Brand New UAB', supplier_code: '305555555' });
    expect(await confirmStakeholder(ports, record({ category_id: 'cat-1', category: 'Travel' }), party)).toMatchObject({ linked: 'created' });
    expect(created[0]).toMatchObject({ name: 'Brand New UAB', category_id: 'cat-1' });
    await confirmStakeholder(ports, record(), content({ supplier_name: 'Other New UAB', supplier_code: '306666666' }));
    expect(created[1]?.category_id).toBeUndefined();
    // Created with it: no second write.
    expect(written).toEqual([]);
  });

  it('a matched supplier without a category (or with a deleted one) takes the document\'s; one with its own keeps it', async () => {
    const { store, ports, written } = withCategoryWrites();
    const doc = record({ category_id: 'cat-1', category: 'Travel' });
    const party = content({ supplier_name: 'Known UAB', supplier_code: '304050607' });
    seed(store, { stakeholders: [known] });
    expect(await confirmStakeholder(ports, doc, party)).toMatchObject({ linked: 'matched', stakeholderId: 's1' });
    expect(written).toEqual([{ id: 's1', category: 'cat-1' }]);
    // Its own category stays (the document's choice is for this document); the same one writes nothing.
    written.length = 0;
    seed(store, { stakeholders: [{ ...known, category_id: 'cat-2' }] });
    await confirmStakeholder(ports, doc, party);
    seed(store, { stakeholders: [{ ...known, category_id: 'cat-1' }] });
    await confirmStakeholder(ports, doc, party);
    // A document without a category teaches nothing.
    seed(store, { stakeholders: [known] });
    await confirmStakeholder(ports, record(), party);
    expect(written).toEqual([]);
    // A category deleted from the register is none.
    seed(store, { stakeholders: [{ ...known, category_id: 'deleted' }] });
    await confirmStakeholder(ports, doc, party);
    expect(written).toEqual([{ id: 's1', category: 'cat-1' }]);
  });
});

describe('what a confirm takes from the register: the matched party\'s code and VAT ID', () => {
  const build = (f: Record<string, string>) => buildContentFromExtraction({ vat_lines: [], line_items: [], ...Object.fromEntries(Object.entries(f).map(([k, v]) => [k, fv(v)])) });
  const before = stakeholderRecord(C, { id: 's1', name: 'Known UAB', code: 'OLD-001', vat_id: 'LT100004444444' });
  const now = { ...before, code: 'NEW-002', version: 2 };
  /** A receipt the machine linked to `before`: name and VAT ID read on the page, the code put in from the register. */
  const uploaded = (printed: Record<string, string> = {}) => applyStakeholderToContent(build({ supplier_name: 'Known UAB', supplier_vat_id: 'LT100004444444', ...printed }), before);
  const linkedDoc = record({ stakeholder_id: 's1' });

  it('the code the register gave the document at upload follows the register\'s corrected code', async () => {
    const { store, ports } = md();
    seed(store, { stakeholders: [now] });
    const c = uploaded();
    expect(valueOf(c, 'supplier_code')).toBe('OLD-001');
    expect(await confirmStakeholder(ports, linkedDoc, c)).toEqual({
      linked: 'matched',
      stakeholderId: 's1',
      patch: { stakeholder_id: 's1', stakeholder_date_format: null },
      content: { supplier_code: 'NEW-002' },
    });
  });

  it('a code read on the page, typed over a read one, another stakeholder\'s, or on a document not linked to the supplier is left', async () => {
    const { store, ports } = md();
    seed(store, { stakeholders: [now, stakeholderRecord(C, { id: 's2', name: 'Other UAB', code: 'OTHER-9' })] });
    // Printed on the page (the VAT ID matched; the page's code is the page's).
    expect(await confirmStakeholder(ports, linkedDoc, uploaded({ supplier_code: 'PRINTED-7' }))).toMatchObject({ linked: 'matched', content: {} });
    // Typed over a code read on the page.
    const typedOver = setValues(uploaded({ supplier_code: 'OLD-001' }), [{ id: 'supplier_code', value: 'TYPED-3' }]);
    expect(await confirmStakeholder(ports, linkedDoc, typedOver)).toMatchObject({ linked: 'matched', content: {} });
    // The code of another supplier of the register names that one.
    const other = setValues(uploaded(), [{ id: 'supplier_code', value: 'OTHER-9' }]);
    expect(await confirmStakeholder(ports, linkedDoc, other)).toMatchObject({ linked: 'matched', stakeholderId: 's1', content: {} });
    // Not linked to this supplier before the confirm: the code did not come from it.
    expect(await confirmStakeholder(ports, record(), uploaded())).toMatchObject({ linked: 'matched', content: {} });
  });

  it('matched by its code nothing changes; a field the document lacks gets the register\'s; a VAT ID read on the page stays', async () => {
    const { store, ports } = md();
    seed(store, { stakeholders: [now] });
    expect(await confirmStakeholder(ports, linkedDoc, build({ supplier_name: 'Known UAB', supplier_code: 'new 002' }))).toMatchObject({ linked: 'matched', content: {} });
    // Matched by name with no code or VAT ID on the document: both from the register.
    expect(await confirmStakeholder(ports, record(), build({ supplier_name: 'Known UAB' }))).toMatchObject({
      linked: 'matched',
      content: { supplier_code: 'NEW-002', supplier_vat_id: 'LT100004444444' },
    });
    // Matched by code with another VAT ID read on the page: the page's VAT ID stays.
    expect(await confirmStakeholder(ports, linkedDoc, build({ supplier_name: 'Known UAB', supplier_code: 'NEW-002', supplier_vat_id: 'LT100005555555' }))).toMatchObject({ linked: 'matched', content: {} });
  });
});
