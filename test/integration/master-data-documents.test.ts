/**
 * Documents and master data through the local API (real handlers, real processing job, local stand-ins):
 * a supplier created with a category and a date format is matched on its next document (stakeholder,
 * category, the ambiguous date read in its format, line items named by the item register); confirming a
 * document of a new supplier creates it; category_id on edits; a type change moves the party to the other
 * side and matches it against the other register.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContentResponse } from '../../shared/schemas/content';
import { apiClient, registeredUser, startTestStack, type TestStack } from '../support/local-stack';
import { invoicePdf, SAMPLE_INVOICE, uploadDocument, type InvoiceSpec } from './content-fixtures';
import { findContentItem } from '../support/content-items';

type User = Awaited<ReturnType<typeof registeredUser>>;
type Api = ReturnType<typeof apiClient>;
type ReceiptBody = {
  receipt_id: string;
  status: string;
  receipt_type: string;
  stakeholder_id: string | null;
  stakeholder: { name: string } | null;
  category: string | null;
  category_id?: string | null;
  external_category_id?: string | null;
  stakeholder_date_format: string | null;
  issue_date: string | null;
  version: number;
};

const valueOf = (c: ContentResponse, id: string) => findContentItem(c.content, id)?.content?.value ?? '';
const lineDescriptions = (c: ContentResponse) => (findContentItem(c.content, 'line_items')?.children ?? []).map((row) => row.children.find((x) => x.schema_id === 'description')?.content?.value);

async function receiptOf(u: User, id: string): Promise<ReceiptBody> {
  const res = await u.api.get(`/receipts/${id}?company_id=${u.companyId}`);
  expect(res.status).toBe(200);
  return res.body as ReceiptBody;
}
async function contentOf(u: User, id: string): Promise<ContentResponse> {
  const res = await u.api.get(`/receipts/${id}/content?company_id=${u.companyId}`);
  expect(res.status).toBe(200);
  return res.body as ContentResponse;
}
async function create(api: Api, path: string, body: unknown): Promise<{ id: string }> {
  const res = await api.post(path, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string };
}

/** An invoice of `supplier` dated 03/04/2025 (April 3rd day first, March 4th month first). */
const spec = (supplier: string, code: string, number: string): InvoiceSpec => ({ ...SAMPLE_INVOICE, supplier, supplierCode: code, number, date: '03/04/2025' });

describe('documents and master data (whole product)', () => {
  let t: TestStack;
  beforeAll(async () => {
    t = await startTestStack();
  });
  afterAll(async () => {
    await t?.stop();
  });

  it.each([
    ['MM/DD/YYYY', '2025-03-04'],
    ['DD/MM/YYYY', '2025-04-03'],
  ] as const)('a known supplier with date format %s: stakeholder, category, items and the date %s', { timeout: 180_000 }, async (format, iso) => {
    const u = await registeredUser(t.stack, 'mdmatch');
    const q = `?company_id=${u.companyId}`;
    const category = await create(u.api, `/category${q}`, { name: 'Office supplies', category_code: 'OS' });
    const supplier = await create(u.api, `/stakeholder${q}`, {
      type: 'supplier',
      name: 'Datefmt Trading',
      code: '304050607',
      street: 'Register g. 5',
      city: 'Kaunas',
      country: 'LT',
      category_id: category.id,
      selected_date_format: format,
    });
    await create(u.api, `/item${q}`, { name: 'Office paper', words: ['paper', 'popierius'] });

    // Printed as "UAB DATEFMT TRADING": the code matches (and the name would, legal form dropped).
    const id = await uploadDocument(t.stack, u.api, u.companyId, await invoicePdf(spec('UAB DATEFMT TRADING', '304050607', `DF-${format.slice(0, 2)}`)), `datefmt-${format.slice(0, 2)}.pdf`);
    const r = await receiptOf(u, id);
    expect(r).toMatchObject({
      stakeholder_id: supplier.id,
      stakeholder: { name: 'Datefmt Trading' },
      category_id: category.id,
      category: 'Office supplies',
      stakeholder_date_format: format,
      issue_date: iso,
    });
    const c = await contentOf(u, id);
    expect(valueOf(c, 'issue_date')).toBe(iso);
    expect(valueOf(c, 'supplier_name')).toBe('Datefmt Trading');
    expect(valueOf(c, 'supplier_code')).toBe('304050607');
    expect(valueOf(c, 'supplier_date_format')).toBe(format);
    // Address fields the document did not have come from the register.
    expect(valueOf(c, 'supplier_city')).toBe('Kaunas');
    // "Paper A4" has the item word "paper": the line is named as the register names the item.
    const lines = lineDescriptions(c);
    expect(lines[0]).toBe('Office paper');
    expect(lines.slice(1).join(' | ')).toMatch(/Pens blue \| .*Stapler/);
    // The server answers the edit screen: this supplier is not new.
    const isNew = await u.api.get(`/isNewStakeholder${q}&type=supplier&name=${encodeURIComponent(valueOf(c, 'supplier_name'))}&code=304050607`);
    expect(isNew.body).toMatchObject({ isNewStakeholder: false });
  });

  it('a supplier of another company is not matched', { timeout: 120_000 }, async () => {
    const a = await registeredUser(t.stack, 'mdown');
    const b = await registeredUser(t.stack, 'mdforeign');
    await create(b.api, `/stakeholder?company_id=${b.companyId}`, { type: 'supplier', name: 'Foreign Trading', code: '309999999', selected_date_format: 'MM/DD/YYYY' });
    const id = await uploadDocument(t.stack, a.api, a.companyId, await invoicePdf(spec('Foreign Trading', '309999999', 'FX-1')), 'foreign.pdf');
    expect(await receiptOf(a, id)).toMatchObject({ stakeholder_id: null, stakeholder_date_format: null, issue_date: '2025-04-03' });
  });

  it('confirming a document of a new supplier creates it, and the next document of that supplier matches it', { timeout: 180_000 }, async () => {
    const u = await registeredUser(t.stack, 'mdnew');
    const q = `?company_id=${u.companyId}`;
    const first = await uploadDocument(t.stack, u.api, u.companyId, await invoicePdf(spec('UAB Naujas Tiekejas', '305555555', 'NT-1')), 'new-1.pdf');
    let r = await receiptOf(u, first);
    expect(r.stakeholder_id).toBeNull();
    const c = await contentOf(u, first);
    expect((await u.api.get(`/isNewStakeholder${q}&type=supplier&name=${encodeURIComponent(valueOf(c, 'supplier_name'))}&code=305555555`)).body).toMatchObject({ isNewStakeholder: true });

    const confirmed = await u.api.post(`/receipt/${first}${q}&with_send=1`, { version: c.version });
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    expect(confirmed.body).toMatchObject({ receipt: { status: 'archive' } });
    r = await receiptOf(u, first);
    expect(r.stakeholder_id).toEqual(expect.any(String));

    // It is in the register, with the name, code and VAT ID of the document.
    const list = (await u.api.get(`/stakeholders${q}&type=supplier&with_external_data=1`)).body as { items: { id: string; name: string; code: string; vat_id: string }[] };
    expect(list.items).toEqual([expect.objectContaining({ id: r.stakeholder_id, name: 'UAB Naujas Tiekejas', code: '305555555', vat_id: 'LT100002222222' })]);

    // The next document of the same supplier matches it.
    const second = await uploadDocument(t.stack, u.api, u.companyId, await invoicePdf(spec('UAB Naujas Tiekejas', '305555555', 'NT-2')), 'new-2.pdf');
    expect((await receiptOf(u, second)).stakeholder_id).toBe(r.stakeholder_id);
    // Confirming it creates nothing more.
    const c2 = await contentOf(u, second);
    expect((await u.api.post(`/receipt/${second}${q}&with_send=1`, { version: c2.version })).status).toBe(200);
    expect(((await u.api.get(`/stakeholders${q}&type=supplier`)).body as { items: unknown[] }).items).toHaveLength(1);
  });

  it('a refused confirm writes nothing: a stale confirm creates no stakeholder; confirming an archived document changes nothing', { timeout: 180_000 }, async () => {
    const u = await registeredUser(t.stack, 'mdrefused');
    const q = `?company_id=${u.companyId}`;
    const suppliers = async () => ((await u.api.get(`/stakeholders${q}&type=supplier`)).body as { items: { name: string }[] }).items.map((s) => s.name);
    const historyOf = async (id: string) => ((await u.api.get(`/receipts/${id}/history${q}`)).body as { items: { name: string }[] }).items.map((h) => h.name);
    const id = await uploadDocument(t.stack, u.api, u.companyId, await invoicePdf(spec('UAB Senas Tiekejas', '307777777', 'RF-1')), 'refused-1.pdf');

    // Opened at v; a colleague saves a supplier nobody has yet; the confirm made on v is refused and creates nothing.
    const seen = await contentOf(u, id);
    const saved = await u.api.put(`/receipts/${id}/content${q}`, { version: seen.version, items: [{ id: 'supplier_name', value: 'Omega Refused UAB' }, { id: 'supplier_code', value: '308888888' }] });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const stale = await u.api.post(`/receipt/${id}${q}&with_send=1`, { version: seen.version });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ message: 'The document was changed by someone else', details: { version: seen.version + 1 } });
    expect(await suppliers()).toEqual([]);
    expect(await receiptOf(u, id)).toMatchObject({ stakeholder_id: null, version: seen.version + 1 });

    // Archived (by status, which links nothing): a confirm is the read-only 409, and the document and register stay as they were.
    const archived = await u.api.post(`/receipt/${id}/status${q}`, { status: 'archive', version: seen.version + 1 });
    expect(archived.status, JSON.stringify(archived.body)).toBe(200);
    const before = await receiptOf(u, id);
    const historyBefore = await historyOf(id);
    const refused = await u.api.post(`/receipt/${id}${q}&with_send=1`, { version: before.version });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ message: 'Archived documents are read-only' });
    expect(await receiptOf(u, id)).toMatchObject({ status: 'archive', version: before.version, stakeholder_id: null });
    expect(await historyOf(id)).toEqual(historyBefore);
    expect(await suppliers()).toEqual([]);
  });

  it('confirming an incomplete archived document answers the read-only 409', { timeout: 180_000 }, async () => {
    const u = await registeredUser(t.stack, 'mdrefusedinc');
    const q = `?company_id=${u.companyId}`;
    const id = await uploadDocument(t.stack, u.api, u.companyId, await invoicePdf(spec('UAB Nepilnas', '309191919', 'RF-2')), 'refused-2.pdf');
    const c = await contentOf(u, id);
    const cleared = await u.api.put(`/receipts/${id}/content${q}`, { version: c.version, items: [{ id: 'document_id', value: '' }] });
    expect(cleared.status, JSON.stringify(cleared.body)).toBe(200);
    expect((await u.api.post(`/receipt/${id}/status${q}`, { status: 'archive', version: c.version + 1 })).status).toBe(200);
    const refused = await u.api.post(`/receipt/${id}${q}&with_send=1`, { version: c.version + 2 });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ message: 'Archived documents are read-only' });
    expect(await receiptOf(u, id)).toMatchObject({ status: 'archive', version: c.version + 2, stakeholder_id: null });
  });

  it('category_id on an edit: a category of the company is stored and shown; another company\'s or an unknown one is refused', { timeout: 120_000 }, async () => {
    const u = await registeredUser(t.stack, 'mdcat');
    const other = await registeredUser(t.stack, 'mdcatother');
    const q = `?company_id=${u.companyId}`;
    const mine = await create(u.api, `/category${q}`, { name: 'Travel', category_code: 'TR-9' });
    const theirs = await create(other.api, `/category?company_id=${other.companyId}`, { name: 'Theirs' });
    const id = await uploadDocument(t.stack, u.api, u.companyId, await invoicePdf(spec('Cat Supplier', '306666666', 'CT-1')), 'cat.pdf');

    let c = await contentOf(u, id);
    const foreign = await u.api.post(`/receipt/${id}${q}`, { version: c.version, receipt_status: 'review', category_id: theirs.id });
    expect(foreign.status).toBe(422);
    expect(foreign.body).toMatchObject({ details: [{ path: ['category_id'], message: 'Choose a category from the list' }] });
    const unknown = await u.api.post(`/receipt/${id}${q}`, { version: c.version, receipt_status: 'review', category_id: 'no-such-category' });
    expect(unknown.status).toBe(422);
    expect((await receiptOf(u, id)).category_id ?? null).toBeNull();

    const ok = await u.api.post(`/receipt/${id}${q}`, { version: c.version, receipt_status: 'review', category_id: mine.id });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body).toMatchObject({ receipt: { category_id: mine.id, category: 'Travel' } });
    expect(await receiptOf(u, id)).toMatchObject({ category_id: mine.id, category: 'Travel' });
    // Shown in the list too.
    const rows = (await u.api.get(`/receipts${q}&limit=50`)).body as { items: ReceiptBody[] };
    expect(rows.items.find((x) => x.receipt_id === id)).toMatchObject({ category: 'Travel' });

    // By the category's id in the accounting system (its code); null removes it.
    c = await contentOf(u, id);
    const byExternal = await u.api.post(`/receipt/${id}${q}`, { version: c.version, receipt_status: 'review', external_category_id: 'TR-9' });
    expect(byExternal.status, JSON.stringify(byExternal.body)).toBe(200);
    expect(byExternal.body).toMatchObject({ receipt: { category_id: mine.id, external_category_id: 'TR-9' } });
    c = await contentOf(u, id);
    const removed = await u.api.post(`/receipt/${id}${q}`, { version: c.version, receipt_status: 'review', category_id: null });
    expect(removed.body).toMatchObject({ receipt: { category_id: null, category: null } });

    // Another company's member cannot touch the document; an anonymous caller is refused.
    const stranger = await other.api.post(`/receipt/${id}?company_id=${other.companyId}`, { version: c.version, category_id: theirs.id });
    expect([403, 404]).toContain(stranger.status);
    const anonymous = await apiClient(t.stack.apiUrl).post(`/receipt/${id}${q}`, { version: c.version, category_id: mine.id });
    expect(anonymous.status).toBe(401);
  });

  it('PUT /receipt/{id}/notes stores the typed notes; an action carries notes not stored yet; refused values and tenants apart', { timeout: 120_000 }, async () => {
    const u = await registeredUser(t.stack, 'notes');
    const other = await registeredUser(t.stack, 'notesother');
    const q = `?company_id=${u.companyId}`;
    const id = await uploadDocument(t.stack, u.api, u.companyId, await invoicePdf(spec('Notes Supplier', '308888888', 'NT-1')), 'notes.pdf');
    const before = await receiptOf(u, id);
    expect((before as ReceiptBody & { notes: string }).notes).toBe('');

    const typed = await u.api.put(`/receipt/${id}/notes${q}`, { notes: '  Paid by the director’s card.\nAsk for a VAT invoice.  ' });
    expect(typed.status, JSON.stringify(typed.body)).toBe(200);
    expect(typed.body).toMatchObject({ receipt_id: id, notes: 'Paid by the director’s card.\nAsk for a VAT invoice.', status: before.status });
    expect(await receiptOf(u, id)).toMatchObject({ notes: 'Paid by the director’s card.\nAsk for a VAT invoice.', version: before.version + 1 });
    const history = (await u.api.get(`/receipts/${id}/history${q}`)).body as { items: { name: string }[] };
    expect(history.items.map((h) => h.name)).toContain('Notes changed');
    // The same notes again write nothing
    expect((await u.api.put(`/receipt/${id}/notes${q}`, { notes: 'Paid by the director’s card.\nAsk for a VAT invoice.' })).body).toMatchObject({ version: before.version + 1 });

    // Refused: too long, control characters, another field, a stale version; nothing written
    const long = await u.api.put(`/receipt/${id}/notes${q}`, { notes: 'x'.repeat(1001) });
    expect(long.status).toBe(422);
    expect(long.body).toMatchObject({ details: [{ path: ['notes'], message: 'At most 1000 characters' }] });
    expect((await u.api.put(`/receipt/${id}/notes${q}`, { notes: 'bell\u0007' })).status).toBe(422);
    expect((await u.api.put(`/receipt/${id}/notes${q}`, { notes: 'x', colour: 'red' })).status).toBe(422);
    expect((await u.api.put(`/receipt/${id}/notes${q}`, {})).status).toBe(422);
    expect((await u.api.put(`/receipt/${id}/notes${q}`, { notes: 'stale', version: 1 })).status).toBe(409);

    // An action carries notes typed and not stored yet: saved for review with them
    let c = await contentOf(u, id);
    const saved = await u.api.post(`/receipt/${id}${q}`, { version: c.version, receipt_status: 'review', notes: 'Checked with the supplier' });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body).toMatchObject({ receipt: { notes: 'Checked with the supplier', status: 'review' } });
    c = await contentOf(u, id);
    const tooLong = await u.api.post(`/receipt/${id}${q}`, { version: c.version, receipt_status: 'review', notes: 'x'.repeat(1001) });
    expect(tooLong.status).toBe(422);

    // An archived document is read-only
    expect((await u.api.post(`/receipt/${id}/status${q}`, { status: 'archive' })).status).toBe(200);
    expect((await u.api.put(`/receipt/${id}/notes${q}`, { notes: 'Too late' })).status).toBe(409);
    expect(await receiptOf(u, id)).toMatchObject({ notes: 'Checked with the supplier' });

    // Another company's member and an anonymous caller cannot touch it
    const stranger = await other.api.put(`/receipt/${id}/notes?company_id=${other.companyId}`, { notes: 'Intruder' });
    expect(stranger.status).toBe(404);
    expect((await other.api.put(`/receipt/${id}/notes${q}`, { notes: 'Intruder' })).status).toBe(403);
    expect((await apiClient(t.stack.apiUrl).put(`/receipt/${id}/notes${q}`, { notes: 'Intruder' })).status).toBe(401);
    expect(await receiptOf(u, id)).toMatchObject({ notes: 'Checked with the supplier' });
  });

  it('PUT /receipt/{id}/category stores the picked category at once, without moving the document; tenants apart', { timeout: 120_000 }, async () => {
    const u = await registeredUser(t.stack, 'mdpick');
    const other = await registeredUser(t.stack, 'mdpickother');
    const q = `?company_id=${u.companyId}`;
    const fuel = await create(u.api, `/category${q}`, { name: 'Fuel', category_code: 'FU-1' });
    const theirs = await create(other.api, `/category?company_id=${other.companyId}`, { name: 'Theirs' });
    const id = await uploadDocument(t.stack, u.api, u.companyId, await invoicePdf(spec('Pick Supplier', '307777777', 'PK-1')), 'pick.pdf');
    const before = await receiptOf(u, id);

    const picked = await u.api.put(`/receipt/${id}/category${q}`, { category_id: fuel.id });
    expect(picked.status, JSON.stringify(picked.body)).toBe(200);
    expect(picked.body).toMatchObject({ receipt_id: id, category_id: fuel.id, category: 'Fuel', status: before.status });
    // Archived right after the pick (the edit screen's Archive): the category stays
    const archived = await u.api.post(`/receipt/${id}/status${q}`, { status: 'archive' });
    expect(archived.status).toBe(200);
    expect(await receiptOf(u, id)).toMatchObject({ status: 'archive', category_id: fuel.id, category: 'Fuel' });
    const history = (await u.api.get(`/receipts/${id}/history${q}`)).body as { items: { name: string }[] };
    expect(history.items.map((h) => h.name)).toContain('Category: Fuel');
    // An archived document is read-only; refused values; no category at all is refused
    expect((await u.api.put(`/receipt/${id}/category${q}`, { category_id: null })).status).toBe(409);
    expect((await u.api.post(`/receipt/${id}/status${q}`, { status: 'review' })).status).toBe(200);
    const foreign = await u.api.put(`/receipt/${id}/category${q}`, { category_id: theirs.id });
    expect(foreign.status).toBe(422);
    expect(foreign.body).toMatchObject({ details: [{ path: ['category_id'], message: 'Choose a category from the list' }] });
    expect((await u.api.put(`/receipt/${id}/category${q}`, {})).status).toBe(422);
    expect((await u.api.put(`/receipt/${id}/category${q}`, { category_id: fuel.id, colour: 'red' })).status).toBe(422);
    const stale = await u.api.put(`/receipt/${id}/category${q}`, { category_id: null, version: 1 });
    expect(stale.status).toBe(409);
    const removed = await u.api.put(`/receipt/${id}/category${q}`, { category_id: null });
    expect(removed.body).toMatchObject({ category_id: null, category: null });
    // Another company's member and an anonymous caller cannot touch it
    const stranger = await other.api.put(`/receipt/${id}/category?company_id=${other.companyId}`, { category_id: theirs.id });
    expect([403, 404]).toContain(stranger.status);
    expect((await apiClient(t.stack.apiUrl).put(`/receipt/${id}/category${q}`, { category_id: fuel.id })).status).toBe(401);
    expect((await receiptOf(u, id)).category_id ?? null).toBeNull();
  });

  it('a type change moves the supplier to the customer side and matches it against the customers', { timeout: 120_000 }, async () => {
    const u = await registeredUser(t.stack, 'mdtype');
    const q = `?company_id=${u.companyId}`;
    const customer = await create(u.api, `/stakeholder${q}`, { type: 'customer', name: 'Moved Party', code: '307777777', selected_date_format: 'DD/MM/YYYY' });
    const id = await uploadDocument(t.stack, u.api, u.companyId, await invoicePdf(spec('Moved Party', '307777777', 'MV-1')), 'moved.pdf');
    let r = await receiptOf(u, id);
    expect(r.stakeholder_id).toBeNull();

    const converted = await u.api.post(`/receipt/${id}/type${q}`, { receipt_type: 'invoice', version: r.version });
    expect(converted.status, JSON.stringify(converted.body)).toBe(200);
    r = await receiptOf(u, id);
    expect(r).toMatchObject({ receipt_type: 'invoice', stakeholder_id: customer.id, stakeholder_date_format: 'DD/MM/YYYY' });
    let c = await contentOf(u, id);
    expect(valueOf(c, 'customer_name')).toBe('Moved Party');
    expect(valueOf(c, 'customer_code')).toBe('307777777');
    expect(valueOf(c, 'supplier_code')).toBe('');

    // And back: the party returns to the supplier side, where it is not a supplier.
    const back = await u.api.post(`/receipt/${id}/type${q}`, { receipt_type: 'receipt', version: r.version });
    expect(back.status).toBe(200);
    expect(await receiptOf(u, id)).toMatchObject({ receipt_type: 'receipt', stakeholder_id: null });
    c = await contentOf(u, id);
    expect(valueOf(c, 'supplier_name')).toBe('Moved Party');
    expect(valueOf(c, 'customer_name')).not.toBe('Moved Party');
  });
  describe('a confirm and the register (the latest word wins; the register names the party and the category)', () => {
    const dated = (supplier: string, code: string, number: string, date: string): InvoiceSpec => ({ ...SAMPLE_INVOICE, supplier, supplierCode: code, number, date });
    const stakeholderOf = async (u: User, id: string) => {
      const res = await u.api.get(`/stakeholders?company_id=${u.companyId}&type=supplier&with_external_data=1`);
      return ((res.body as { items: { id: string; name: string; code: string; selected_date_format: string | null; category: { name: string } | null }[] }).items).find((s) => s.id === id);
    };

    it('confirming a document with another supplier date format changes the supplier and the next upload reads dates with it', { timeout: 180_000 }, async () => {
      const u = await registeredUser(t.stack, 'mdfmtset');
      const q = `?company_id=${u.companyId}`;
      const supplier = await create(u.api, `/stakeholder${q}`, { type: 'supplier', name: 'Zeta Supplies', code: '301212121', selected_date_format: 'DD/MM/YYYY' });
      const first = await uploadDocument(t.stack, u.api, u.companyId, await invoicePdf(dated('Zeta Supplies', '301212121', 'ZF-1', '05/06/2026')), 'zeta-1.pdf');
      const r1 = await receiptOf(u, first);
      expect(r1).toMatchObject({ stakeholder_id: supplier.id, stakeholder_date_format: 'DD/MM/YYYY', issue_date: '2026-06-05' });
      // The reviewer corrects the date and sets the document's date format (Advanced tab), then confirms.
      const c1 = await contentOf(u, first);
      const confirmed = await u.api.post(`/receipt/${first}${q}&with_send=1`, {
        version: c1.version,
        items: [
          { id: 'issue_date', value: '2026-05-06' },
          { id: 'supplier_date_format', value: 'MM/DD/YYYY' },
        ],
      });
      expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
      expect(await receiptOf(u, first)).toMatchObject({ status: 'archive', stakeholder_id: supplier.id, stakeholder_date_format: 'MM/DD/YYYY', issue_date: '2026-05-06' });
      expect(await stakeholderOf(u, supplier.id)).toMatchObject({ selected_date_format: 'MM/DD/YYYY' });
      // The next document of the supplier is read month first.
      const second = await uploadDocument(t.stack, u.api, u.companyId, await invoicePdf(dated('Zeta Supplies', '301212121', 'ZF-2', '07/08/2026')), 'zeta-2.pdf');
      expect(await receiptOf(u, second)).toMatchObject({ stakeholder_id: supplier.id, stakeholder_date_format: 'MM/DD/YYYY', issue_date: '2026-07-08' });
      // A document read under the former format, confirmed as it stands, does not set the former format back.
      const c2 = await contentOf(u, second);
      expect((await u.api.post(`/receipt/${second}${q}&with_send=1`, { version: c2.version })).status).toBe(200);
      expect(await stakeholderOf(u, supplier.id)).toMatchObject({ selected_date_format: 'MM/DD/YYYY' });
    });

    it('a confirmed correction of the date order changes the date format of a supplier that has one', { timeout: 180_000 }, async () => {
      const u = await registeredUser(t.stack, 'mdfmtlearn');
      const q = `?company_id=${u.companyId}`;
      const supplier = await create(u.api, `/stakeholder${q}`, { type: 'supplier', name: 'Eta Supplies', code: '301313131', selected_date_format: 'DD/MM/YYYY' });
      const first = await uploadDocument(t.stack, u.api, u.companyId, await invoicePdf(dated('Eta Supplies', '301313131', 'EF-1', '03/04/2026')), 'eta-1.pdf');
      expect(await receiptOf(u, first)).toMatchObject({ stakeholder_id: supplier.id, issue_date: '2026-04-03' });
      // Only the date is corrected (month first); the Date format field is left as the register filled it.
      const c1 = await contentOf(u, first);
      expect(valueOf(c1, 'supplier_date_format')).toBe('DD/MM/YYYY');
      const confirmed = await u.api.post(`/receipt/${first}${q}&with_send=1`, { version: c1.version, items: [{ id: 'issue_date', value: '2026-03-04' }] });
      expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
      expect(await stakeholderOf(u, supplier.id)).toMatchObject({ selected_date_format: 'MM/DD/YYYY' });
      const second = await uploadDocument(t.stack, u.api, u.companyId, await invoicePdf(dated('Eta Supplies', '301313131', 'EF-2', '07/08/2026')), 'eta-2.pdf');
      expect(await receiptOf(u, second)).toMatchObject({ stakeholder_id: supplier.id, stakeholder_date_format: 'MM/DD/YYYY', issue_date: '2026-07-08' });
      // The format is set back in the register; the document read under the former one, confirmed as read, leaves it.
      expect((await u.api.put(`/stakeholder${q}`, { id: supplier.id, selected_date_format: 'DD/MM/YYYY' })).status).toBe(200);
      const c2 = await contentOf(u, second);
      expect((await u.api.post(`/receipt/${second}${q}&with_send=1`, { version: c2.version })).status).toBe(200);
      expect(await stakeholderOf(u, supplier.id)).toMatchObject({ selected_date_format: 'DD/MM/YYYY' });
    });

    it('a document whose category was deleted cannot be confirmed or marked ready with it; an archived one keeps it', { timeout: 180_000 }, async () => {
      const u = await registeredUser(t.stack, 'mdcatdel');
      const q = `?company_id=${u.companyId}`;
      const travel = await create(u.api, `/category${q}`, { name: 'Travel costs' });
      const open = await uploadDocument(t.stack, u.api, u.companyId, await invoicePdf(spec('Catdel Supplier', '301414141', 'CD-1')), 'catdel-1.pdf');
      const done = await uploadDocument(t.stack, u.api, u.companyId, await invoicePdf(spec('Catdel Supplier', '301414141', 'CD-2')), 'catdel-2.pdf');
      for (const id of [open, done]) expect((await u.api.put(`/receipt/${id}/category${q}`, { category_id: travel.id })).status).toBe(200);
      const d = await contentOf(u, done);
      expect((await u.api.post(`/receipt/${done}${q}&with_send=1`, { version: d.version })).status).toBe(200);
      expect((await u.api.delete(`/category${q}&id=${travel.id}`)).status).toBe(200);

      const before = await receiptOf(u, open);
      expect(before).toMatchObject({ category_id: travel.id, category: 'Travel costs' });
      const refused = await u.api.post(`/receipt/${open}${q}&with_send=1`, { version: before.version });
      expect(refused.status).toBe(422);
      expect(refused.body).toMatchObject({ details: [{ path: ['category_id'], message: 'Choose a category from the list' }] });
      const ready = await u.api.post(`/receipt/${open}/status${q}`, { status: 'ready', version: before.version });
      expect(ready.status).toBe(422);
      expect(ready.body).toMatchObject({ details: [{ path: ['category_id'], message: 'Choose a category from the list' }] });
      expect(await receiptOf(u, open)).toMatchObject({ status: before.status, version: before.version, stakeholder_id: null });
      expect(((await u.api.get(`/stakeholders${q}&type=supplier`)).body as { items: unknown[] }).items).toHaveLength(1);
      // Another category (or none) and the confirm goes through; the archived document keeps its category name.
      const cleared = await u.api.post(`/receipt/${open}${q}&with_send=1`, { version: before.version, category_id: null });
      expect(cleared.status, JSON.stringify(cleared.body)).toBe(200);
      expect(await receiptOf(u, done)).toMatchObject({ status: 'archive', category_id: travel.id, category: 'Travel costs' });
    });

    it('a confirm with a category creates the supplier with it, and the next upload of the supplier gets that category', { timeout: 180_000 }, async () => {
      const u = await registeredUser(t.stack, 'mdcatlearn');
      const q = `?company_id=${u.companyId}`;
      const travel = await create(u.api, `/category${q}`, { name: 'Travel costs' });
      const first = await uploadDocument(t.stack, u.api, u.companyId, await invoicePdf(spec('UAB Kelione', '301616161', 'KL-1')), 'kelione-1.pdf');
      expect(await receiptOf(u, first)).toMatchObject({ stakeholder_id: null, category_id: null });
      const c1 = await contentOf(u, first);
      // The person picks the category on the edit screen and confirms.
      const confirmed = await u.api.post(`/receipt/${first}${q}&with_send=1`, { version: c1.version, category_id: travel.id });
      expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
      const r1 = await receiptOf(u, first);
      expect(r1).toMatchObject({ status: 'archive', stakeholder_id: expect.any(String), category_id: travel.id });
      expect(await stakeholderOf(u, r1.stakeholder_id!)).toMatchObject({ name: 'UAB Kelione', category: { name: 'Travel costs' } });
      const second = await uploadDocument(t.stack, u.api, u.companyId, await invoicePdf(spec('UAB Kelione', '301616161', 'KL-2')), 'kelione-2.pdf');
      expect(await receiptOf(u, second)).toMatchObject({ stakeholder_id: r1.stakeholder_id, category_id: travel.id, category: 'Travel costs' });
    });

    it('a matched supplier without a category learns the confirmed one; its code corrected in the register reaches the document', { timeout: 180_000 }, async () => {
      const u = await registeredUser(t.stack, 'mdcodefix');
      const q = `?company_id=${u.companyId}`;
      const fuel = await create(u.api, `/category${q}`, { name: 'Fuel' });
      // The invoices print this VAT ID and no company code: the register's code is put into the document.
      const supplier = await create(u.api, `/stakeholder${q}`, { type: 'supplier', name: 'Kodas Degalai', code: '301717171', vat_id: 'LT100002222222' });
      const id = await uploadDocument(t.stack, u.api, u.companyId, await invoicePdf(spec('Kodas Degalai', '', 'KD-1')), 'kodas-1.pdf');
      expect(await receiptOf(u, id)).toMatchObject({ stakeholder_id: supplier.id, category_id: null });
      const c = await contentOf(u, id);
      expect(valueOf(c, 'supplier_code')).toBe('301717171');
      // The bookkeeper corrects the supplier's code in Suppliers, then confirms the document with a category.
      expect((await u.api.put(`/stakeholder${q}`, { id: supplier.id, code: '309000111' })).status).toBe(200);
      const confirmed = await u.api.post(`/receipt/${id}${q}&with_send=1`, { version: c.version, category_id: fuel.id });
      expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
      expect(await receiptOf(u, id)).toMatchObject({ status: 'archive', stakeholder_id: supplier.id, category_id: fuel.id });
      expect(valueOf(await contentOf(u, id), 'supplier_code')).toBe('309000111');
      expect(await stakeholderOf(u, supplier.id)).toMatchObject({ code: '309000111', category: { name: 'Fuel' } });
      // The register keeps one supplier; its next document gets the category.
      expect(((await u.api.get(`/stakeholders${q}&type=supplier`)).body as { items: unknown[] }).items).toHaveLength(1);
      const next = await uploadDocument(t.stack, u.api, u.companyId, await invoicePdf(spec('Kodas Degalai', '', 'KD-2')), 'kodas-2.pdf');
      expect(await receiptOf(u, next)).toMatchObject({ stakeholder_id: supplier.id, category_id: fuel.id, category: 'Fuel' });
    });

    it('a document confirmed after its supplier and category were renamed carries the new names; an archived one keeps the old', { timeout: 180_000 }, async () => {
      const u = await registeredUser(t.stack, 'mdrename');
      const q = `?company_id=${u.companyId}`;
      const software = await create(u.api, `/category${q}`, { name: 'Software' });
      const supplier = await create(u.api, `/stakeholder${q}`, { type: 'supplier', name: 'Alpha Vat', code: '301515151', category_id: software.id });
      const old = await uploadDocument(t.stack, u.api, u.companyId, await invoicePdf(spec('Alpha Vat', '301515151', 'AV-1')), 'alpha-1.pdf');
      const open = await uploadDocument(t.stack, u.api, u.companyId, await invoicePdf(spec('Alpha Vat', '301515151', 'AV-2')), 'alpha-2.pdf');
      expect(await receiptOf(u, open)).toMatchObject({ stakeholder_id: supplier.id, category_id: software.id, category: 'Software' });
      const o = await contentOf(u, old);
      expect((await u.api.post(`/receipt/${old}${q}&with_send=1`, { version: o.version })).status).toBe(200);

      expect((await u.api.put(`/stakeholder${q}`, { id: supplier.id, name: 'Alpha Renamed' })).status).toBe(200);
      expect((await u.api.put(`/category${q}`, { id: software.id, name: 'Software licences' })).status).toBe(200);
      const c = await contentOf(u, open);
      expect(valueOf(c, 'supplier_name')).toBe('Alpha Vat');
      const confirmed = await u.api.post(`/receipt/${open}${q}&with_send=1`, { version: c.version });
      expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
      expect(await receiptOf(u, open)).toMatchObject({ status: 'archive', stakeholder_id: supplier.id, category: 'Software licences' });
      expect(valueOf(await contentOf(u, open), 'supplier_name')).toBe('Alpha Renamed');
      // The list shows and finds the new name; the register still has one supplier.
      const found = (await u.api.get(`/receipts${q}&limit=50&search_value=Renamed`)).body as { items: { receipt_id: string; counterparty_name?: string }[] };
      expect(found.items.map((x) => x.receipt_id)).toEqual([open]);
      expect(((await u.api.get(`/stakeholders${q}&type=supplier`)).body as { items: unknown[] }).items).toHaveLength(1);
      // The document confirmed before the rename keeps the names of its time.
      expect(await receiptOf(u, old)).toMatchObject({ status: 'archive', category: 'Software' });
      expect(valueOf(await contentOf(u, old), 'supplier_name')).toBe('Alpha Vat');
    });
  });
});
