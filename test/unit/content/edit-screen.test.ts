import { describe, expect, it } from 'vitest';
import { companySchema } from '../../../lambdas/core/content/schema';
import { addRow, emptyContent, setValues } from '../../../lambdas/core/content/tree';
import { actionState, COMPANY_CODE_NOTE, FIELD_ERRORS_NOTE, nextRotation, sameCode } from '../../../web/src/features/edit-receipt/lib/actions';
import { formErrors, formSections, formTables, tabErrorCount, tabErrorLabel } from '../../../web/src/features/edit-receipt/lib/form';
import {
  canApply,
  deleteAllColumns,
  deleteAllRows,
  editorPart,
  moveBox,
  moveRowLine,
  newPart,
  resizeBox,
  setColumnField,
  toggleColumnLine,
  toggleRowLine,
} from '../../../web/src/features/edit-receipt/lib/grid-editor';
import { shortcutOf } from '../../../web/src/features/edit-receipt/lib/keyboard';
import { inList, listPath, walkTotal } from '../../../web/src/features/edit-receipt/lib/navigation';
import { fieldsLeftByRetypedName, NEW_STAKEHOLDER_NOTE, showNewMarker, stakeholderValues } from '../../../web/src/features/edit-receipt/lib/stakeholder';
import { CONTENT_MSG } from '../../../shared/schemas/content';

describe('grid editor', () => {
  const box = { left: 0.1, top: 0.2, width: 0.6, height: 0.3 };
  const H = 1000; // page height in px: 6 px = 0.006
  const W = 1000;

  it('adds a row line, and a click within 6 px of it removes it', () => {
    let p = newPart(1, 'a.pdf', box);
    expect(p.rows).toEqual([{ top_position: 0.2 }]);
    p = toggleRowLine(p, 0.3, H);
    p = toggleRowLine(p, 0.4, H);
    expect(p.rows.map((r) => r.top_position)).toEqual([0.2, 0.3, 0.4]);
    expect(toggleRowLine(p, 0.305, H).rows.map((r) => r.top_position)).toEqual([0.2, 0.4]);
    // 7 px away is a new line
    expect(toggleRowLine(p, 0.307, H).rows).toHaveLength(4);
    // Outside the box: nothing
    expect(toggleRowLine(p, 0.6, H)).toBe(p);
  });

  it('adds column lines with no field, assigns fields, moves and resizes, deletes all', () => {
    let p = newPart(1, null, box);
    p = toggleColumnLine(p, 0.4, W);
    p = setColumnField(p, 0, 'description');
    p = setColumnField(p, 1, 'total_price');
    expect(p.columns).toEqual([
      { schema_id: 'description', left_position: 0.1 },
      { schema_id: 'total_price', left_position: 0.4 },
    ]);
    expect(toggleColumnLine(p, 0.404, W).columns).toHaveLength(1);
    expect(canApply([p])).toBe(true);
    expect(canApply([newPart(1, null, box)])).toBe(false);
    const moved = moveBox(p, 0.05, -0.5);
    expect(moved.box).toEqual({ left: 0.15, top: 0, width: 0.6, height: 0.3 });
    expect(moved.columns[1]!.left_position).toBe(0.45);
    const narrowed = resizeBox(p, 'right', 0.35);
    expect(narrowed.columns).toEqual([{ schema_id: 'description', left_position: 0.1 }]);
    const lowered = resizeBox(toggleRowLine(p, 0.3, H), 'top', 0.32);
    expect(lowered.rows).toEqual([{ top_position: 0.32 }]);
    const withRows = toggleRowLine(toggleRowLine(p, 0.3, H), 0.35, H);
    expect(moveRowLine(withRows, 1, 0.9).rows[1]!.top_position).toBeCloseTo(0.345, 5);
    expect(deleteAllRows(withRows).rows).toEqual([{ top_position: 0.2 }]);
    expect(deleteAllColumns(p).columns).toEqual([{ schema_id: 'description', left_position: 0.1 }]);
    expect(editorPart({ document: null, page: 1, box: { left: 0.1 }, rows: [], columns: [] })).toBeNull();
  });
});

describe('navigation, actions, keyboard, stakeholders', () => {
  const items = [
    { receipt_id: 'a', status: 'review' as const, receipt_type: 'receipt' as const },
    { receipt_id: 'b', status: 'ready' as const, receipt_type: 'receipt' as const },
    { receipt_id: 'c', status: 'processing' as const, receipt_type: 'receipt' as const },
    { receipt_id: 'd', status: 'review' as const, receipt_type: 'invoice' as const },
    { receipt_id: 'e', status: 'review' as const, receipt_type: 'receipt' as const },
  ];

  // Previous / next and the place in the list: test/unit/web/edit-walk.test.ts
  it('walks the inbox (any status but processing and unassigned) or one status, same type', () => {
    const inbox = items.filter((i) => inList(i, { inbox: true, status: 'review', receiptType: 'receipt' }));
    expect(inbox.map((i) => i.receipt_id)).toEqual(['a', 'b', 'e']);
    const review = items.filter((i) => inList(i, { inbox: false, status: 'review', receiptType: 'receipt' }));
    expect(review.map((i) => i.receipt_id)).toEqual(['a', 'e']);
    expect(listPath({ inbox: true, status: 'review' })).toBe('/receipts/inbox');
    expect(listPath({ inbox: false, status: 'ready' })).toBe('/receipts/ready');
  });

  it('n/total: the total of the list by the company\'s counts', () => {
    const ctx = { inbox: false, status: 'review' as const, receiptType: 'receipt' as const };
    const counts = { receipt: { review: 130, ready: 4, processing: 2, unassigned: 1, converting: 1, saving: 1, archive: 7 }, invoice: { review: 9 } };
    expect(walkTotal(counts, ctx)).toBe(130);
    // the inbox counts every status it walks (not processing, unassigned, converting or saving)
    expect(walkTotal(counts, { ...ctx, inbox: true })).toBe(141);
    expect(walkTotal(undefined, ctx)).toBeNull();
  });

  it('shows the status actions by status, enabled only when valid and the codes differ', () => {
    const labels = (s: ReturnType<typeof actionState>) => s.buttons.map((b) => b.label);
    expect(labels(actionState({ status: 'review', valid: true, companyCode: '1', stakeholderCode: '2', sends: false }))).toEqual(['REJECT', 'Review', 'CONFIRM', 'Archive']);
    expect(labels(actionState({ status: 'ready', valid: true, companyCode: '1', stakeholderCode: '2', sends: true }))).toEqual(['REJECT', 'MOVE TO REVIEW', 'Review', 'REVIEW AND SEND', 'Archive']);
    expect(labels(actionState({ status: 'rejected', valid: true, companyCode: '1', stakeholderCode: '2', sends: false }))).not.toContain('REJECT');
    expect(actionState({ status: 'archive', valid: true, companyCode: '1', stakeholderCode: '2', sends: false })).toMatchObject({ mode: 'read-only', buttons: [] });
    expect(actionState({ status: 'processing', valid: true, companyCode: '1', stakeholderCode: '2', sends: false }).mode).toBe('processing');
    const invalid = actionState({ status: 'review', valid: false, companyCode: '1', stakeholderCode: '2', sends: false });
    expect(invalid.buttons.every((b) => !b.enabled)).toBe(true);
    // a disabled button says why in its tooltip; an enabled one has none
    expect(invalid.buttons.map((b) => b.why)).toEqual(Array(4).fill(FIELD_ERRORS_NOTE));
    expect(FIELD_ERRORS_NOTE).toBe('Correct the fields with a message first');
    expect(actionState({ status: 'review', valid: true, companyCode: '1', stakeholderCode: '2', sends: false }).buttons.some((b) => b.why)).toBe(false);
    const same = actionState({ status: 'review', valid: true, companyCode: '302 222', stakeholderCode: '302222', sends: false });
    expect(same.codeNote).toBe(true);
    expect(same.buttons.every((b) => !b.enabled)).toBe(true);
    expect(same.buttons.every((b) => b.why === COMPANY_CODE_NOTE)).toBe(true);
    expect(COMPANY_CODE_NOTE).toBe('Company code matches customer/supplier code');
    expect(sameCode('', '')).toBe(false);
    expect([0, 90, 180, 270, 360].map(nextRotation)).toEqual([90, 180, 270, 360, 90]);
  });

  it('maps keys to shortcuts without catching typing', () => {
    const k = (key: string, extra: Partial<Parameters<typeof shortcutOf>[0]> = {}) => shortcutOf({ key, altKey: false, ctrlKey: false, metaKey: false, shiftKey: false, inField: false, ...extra });
    expect(k('ArrowRight', { altKey: true })).toBe('nextDocument');
    expect(k('Enter', { altKey: true })).toBe('confirm');
    expect(k('®', { altKey: true, code: 'KeyR' })).toBe('reject');
    expect(k('?')).toBe('help');
    expect(k('?', { inField: true })).toBeNull();
    expect(k('r')).toBeNull();
    expect(k('Enter', { altKey: true, ctrlKey: true })).toBeNull();
  });

  it('shows the new marker only on the server\'s answer for the name and code the form holds', () => {
    expect(showNewMarker({ name: 'Other', code: '9', isNewStakeholder: true }, 'Other', '9')).toBe(true);
    expect(showNewMarker({ name: 'UAB Egle', code: '', isNewStakeholder: false }, 'UAB Egle', '')).toBe(false);
    // An answer for what the form held before, or none yet: no marker until the server answers.
    expect(showNewMarker({ name: 'Othe', code: '9', isNewStakeholder: true }, 'Other', '9')).toBe(false);
    expect(showNewMarker(undefined, 'Other', '9')).toBe(false);
    expect(showNewMarker({ name: '', code: '', isNewStakeholder: true }, '', '')).toBe(false);
    expect(NEW_STAKEHOLDER_NOTE).toBe('NOTE: new Supplier & Customer');
  });

  it('a picked supplier whose name is retyped into another one takes the values it wrote with it; those typed since stay', () => {
    const values = { supplier_name: 'Ignitis UAB', supplier_code: '303383884', supplier_vat_id: 'LT100008860716', supplier_city: 'Vilnius', supplier_street: '' };
    const pick = { receiptId: 'r1', nameId: 'supplier_name', name: 'Ignitis UAB', values };
    const form: Record<string, string> = { ...values, supplier_city: 'Kaunas' };
    const valueOf = (id: string) => form[id] ?? '';
    // the same name, spelt otherwise only in case, spaces or signs: nothing goes
    expect(fieldsLeftByRetypedName(pick, 'IGNITIS, UAB', valueOf)).toBeNull();
    expect(fieldsLeftByRetypedName(pick, 'Ignitis  UAB ', valueOf)).toBeNull();
    // another name: the code and VAT ID the pick wrote are emptied; the city typed since and the empty street stay
    expect(fieldsLeftByRetypedName(pick, 'Completely Unknown Vendor', valueOf)).toEqual({ supplier_code: '', supplier_vat_id: '' });
    expect(fieldsLeftByRetypedName(pick, 'Ignit', valueOf)).toEqual({ supplier_code: '', supplier_vat_id: '' });
  });

  it('a chosen stakeholder fills name, code, VAT ID, address and date format of the applying side', () => {
    const s = { name: 'UAB Ėglė', code: '302111', vat_id: 'LT302111', street: 'Gatvė 1', city: 'Vilnius', zipcode: '01100', country: 'LT', selected_date_format: 'DD/MM/YYYY' as const };
    expect(stakeholderValues(s, 'customer')).toEqual({
      customer_name: 'UAB Ėglė',
      customer_code: '302111',
      customer_vat_id: 'LT302111',
      customer_street: 'Gatvė 1',
      customer_city: 'Vilnius',
      customer_zipcode: '01100',
      customer_country: 'LT',
      customer_date_format: 'DD/MM/YYYY',
    });
    expect(stakeholderValues({ ...s, selected_date_format: null }, 'supplier')).not.toHaveProperty('supplier_date_format');
  });
});

describe('edit form model', () => {
  it('puts the applying stakeholder on Item Details and the other on Advanced, hides hidden fields', () => {
    const schema = companySchema({ iban: { hidden: true } });
    const doc = addRow(setValues(emptyContent(schema), [{ id: 'supplier_name', value: 'UAB X' }]), schema, 'vat_lines').doc;
    const details = formSections(schema, doc.items, 'details', 'receipt');
    expect(details.map((s) => s.id)).toEqual(['document', 'supplier', 'amounts']);
    expect(details[1]!.fields.find((f) => f.id === 'supplier_name')).toMatchObject({ value: 'UAB X', required: true });
    const advanced = formSections(schema, doc.items, 'advanced', 'receipt');
    expect(advanced.map((s) => s.id)).toContain('customer');
    expect(advanced.find((s) => s.id === 'customer')!.fields.find((f) => f.id === 'customer_name')!.required).toBe(false);
    expect(advanced.flatMap((s) => s.fields).map((f) => f.id)).not.toContain('iban');
    const sales = formSections(schema, doc.items, 'details', 'invoice');
    expect(sales.map((s) => s.id)).toEqual(['document', 'customer', 'amounts']);
    const tables = formTables(schema, doc.items, 'details', 'receipt');
    expect(tables.map((t) => [t.schemaId, t.rows.length])).toEqual([
      ['vat_lines', 1],
      ['line_items', 0],
    ]);
    const errors = formErrors([{ id: 'document_id', message: CONTENT_MSG.required }], { amount_total: '1,5', document_id: 'X' }, new Map([['amount_total', { type: 'amount' as const, required: false }], ['document_id', { type: 'code' as const, required: true }]]));
    expect(errors).toEqual({ amount_total: CONTENT_MSG.amount });
  });

  it('counts the messages of each tab, fields and table cells, so one on the other tab is not missed', () => {
    const schema = companySchema();
    const doc = addRow(emptyContent(schema), schema, 'vat_lines').doc;
    const cell = formTables(schema, doc.items, 'details', 'receipt')[0]!.rows[0]!.cells[0]!;
    const advancedField = formSections(schema, doc.items, 'advanced', 'receipt').flatMap((s) => s.fields)[0]!;
    const errors = { document_id: CONTENT_MSG.required, [cell.id]: CONTENT_MSG.amount, [advancedField.id]: CONTENT_MSG.required };
    expect(tabErrorCount(schema, doc.items, 'details', 'receipt', errors)).toBe(2);
    expect(tabErrorCount(schema, doc.items, 'advanced', 'receipt', errors)).toBe(1);
    expect(tabErrorCount(schema, doc.items, 'advanced', 'receipt', {})).toBe(0);
    expect(tabErrorLabel(1)).toBe('1 field with a message');
    expect(tabErrorLabel(3)).toBe('3 fields with a message');
  });
});

describe('fields configuration', () => {
  it('names each switch for screen readers, with the section where two sections share a label', async () => {
    const { settingsOf, switchName } = await import('../../../web/src/features/fields-config/lib/changes');
    const settings = settingsOf(companySchema());
    const named = (id: string, what: 'visible' | 'required') => switchName(settings, settings.find((s) => s.id === id)!, what);
    expect(named('iban', 'visible')).toBe('IBAN visible');
    expect(named('due_date', 'required')).toBe('Due date required');
    expect(named('supplier_street', 'visible')).toBe('Supplier street visible');
    expect(named('customer_street', 'required')).toBe('Customer street required');
    const names = settings.flatMap((s) => [switchName(settings, s, 'visible'), switchName(settings, s, 'required')]);
    expect(new Set(names).size).toBe(names.length);
  });

  it('sends only the changed datapoints; required keeps a field visible', async () => {
    const { changedDatapoints, settingsOf, toggle } = await import('../../../web/src/features/fields-config/lib/changes');
    const before = settingsOf(companySchema());
    expect(before.map((s) => s.id)).toEqual(expect.arrayContaining(['document_id', 'iban', 'supplier_code', 'amount_total']));
    expect(before.map((s) => s.id)).not.toContain('vat_line_rate');
    let after = toggle(before, 'iban', 'visible');
    after = toggle(after, 'issue_date', 'required');
    after = toggle(toggle(after, 'currency', 'visible'), 'currency', 'required');
    expect(after.find((s) => s.id === 'currency')).toMatchObject({ visible: true, required: true });
    expect(toggle(after, 'currency', 'visible').find((s) => s.id === 'currency')).toMatchObject({ visible: false, required: false });
    expect(changedDatapoints(before, after)).toEqual([
      { id: 'issue_date', constraints: { required: true } },
      { id: 'currency', constraints: { required: true } },
      { id: 'iban', hidden: true },
    ]);
  });

  it('shows the fields the spec requires locked: required, visible, with the reason; toggling them changes nothing', async () => {
    const { changedDatapoints, settingsOf, toggle } = await import('../../../web/src/features/fields-config/lib/changes');
    const before = settingsOf(companySchema());
    expect(before.filter((s) => s.locked).map((s) => [s.id, s.visible, s.required, s.locked])).toEqual([
      ['document_id', true, true, 'Invoice number is always required'],
      ['supplier_name', true, true, 'Supplier name is always required'],
      ['customer_name', true, true, 'Customer name is always required'],
    ]);
    const after = toggle(toggle(toggle(before, 'document_id', 'required'), 'document_id', 'visible'), 'supplier_name', 'visible');
    expect(after).toEqual(before);
    expect(changedDatapoints(before, after)).toEqual([]);
  });
});
