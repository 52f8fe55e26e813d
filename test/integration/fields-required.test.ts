/**
 * The company's Fields configuration through the real local API and processing job: a field the company made
 * Required keeps a freshly recognised document out of ready (ready promises what a confirm would accept), and the
 * fields the spec requires (invoice number, the supplier or customer name) can be made neither optional nor hidden.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ddbContentSettings } from '../../lambdas/adapters/ddb/content-store';
import { registeredUser, startTestStack, type TestStack } from '../support/local-stack';
import { invoicePdf, uploadDocument } from './content-fixtures';

type Field = { id: string; hidden: boolean; constraints: { required: boolean }; configurable: boolean; locked?: string };
type Summary = { receipt_id: string; status: string };

describe('fields configuration: required fields', () => {
  let t: TestStack;
  beforeAll(async () => {
    t = await startTestStack();
  });
  afterAll(async () => {
    await t?.stop();
  });

  async function statusOf(api: Awaited<ReturnType<typeof registeredUser>>['api'], companyId: string, receiptId: string) {
    const res = await api.get(`/receipts/${receiptId}?company_id=${companyId}`);
    expect(res.status).toBe(200);
    return (res.body as Summary).status;
  }

  it('an upload whose company requires an empty field ends in review with the field named, not in ready', async () => {
    const bytes = await invoicePdf();
    // The same invoice reaches ready in a company that requires nothing more (the control).
    const plain = await registeredUser(t.stack, 'reqplain');
    const plainId = await uploadDocument(t.stack, plain.api, plain.companyId, bytes, 'invoice.pdf');
    expect(await statusOf(plain.api, plain.companyId, plainId)).toBe('ready');

    const strict = await registeredUser(t.stack, 'reqstrict');
    const q = `company_id=${strict.companyId}`;
    const put = await strict.api.put(`/schemas?${q}`, { datapoints: [{ id: 'bank_code', constraints: { required: true } }, { id: 'document_category', constraints: { required: true } }] });
    expect(put.status).toBe(200);
    const id = await uploadDocument(t.stack, strict.api, strict.companyId, bytes, 'invoice.pdf');
    expect(await statusOf(strict.api, strict.companyId, id)).toBe('review');
    // The edit screen shows why: the content names the empty required fields, and the history says it.
    const content = (await strict.api.get(`/receipts/${id}/content?${q}`)).body as { errors: { id: string; message: string }[] };
    expect(content.errors.map((e) => e.message)).toEqual(['Required field', 'Required field']);
    const history = (await strict.api.get(`/receipts/${id}/history?${q}`)).body as { items: { name: string }[] };
    expect(history.items.map((h) => h.name)).toContain('Recognised: to review (Document category missing (required by the company); Bank code missing (required by the company))');
    // Once the fields are filled in, the document may be moved to ready by hand as before.
    const items = (await strict.api.get(`/receipts/${id}/content?${q}`)).body as { version: number; content: { id: string; schema_id: string; children: unknown[] }[] };
    const all: { id: string; schema_id: string }[] = [];
    const walk = (list: { id: string; schema_id: string; children: unknown[] }[]) => list.forEach((i) => (all.push(i), walk(i.children as typeof list)));
    walk(items.content);
    const idOf = (schemaId: string) => all.find((i) => i.schema_id === schemaId)!.id;
    const filled = await strict.api.put(`/receipts/${id}/content?${q}`, { version: items.version, items: [{ id: idOf('bank_code'), value: '73000' }, { id: idOf('document_category'), value: 'SF' }] });
    expect(filled.status).toBe(200);
    const moved = await strict.api.post(`/receipt/${id}/status?${q}`, { status: 'ready', version: (filled.body as { version: number }).version });
    expect(moved.status).toBe(200);
    expect(await statusOf(strict.api, strict.companyId, id)).toBe('ready');
  });

  it('refuses to make the invoice number or the supplier or customer name optional or hidden (422 on that field)', async () => {
    const { api, companyId } = await registeredUser(t.stack, 'reqlock');
    const q = `company_id=${companyId}`;
    const cases: [string, Record<string, unknown>, string][] = [
      ['document_id', { constraints: { required: false } }, 'Invoice number is always required'],
      ['document_id', { hidden: true }, 'Invoice number is always required'],
      ['supplier_name', { hidden: true, constraints: { required: false } }, 'Supplier name is always required'],
      ['customer_name', { constraints: { required: false } }, 'Customer name is always required'],
    ];
    for (const [id, change, message] of cases) {
      const res = await api.put(`/schemas?${q}`, { datapoints: [{ id, ...change }] });
      expect(res.status, id).toBe(422);
      expect(res.body).toMatchObject({ statusCode: 422, message, details: [{ path: ['datapoints', id], message }] });
    }
    // Leaving them as they are is no change, and other fields change as before.
    const ok = await api.put(`/schemas?${q}`, { datapoints: [{ id: 'document_id', constraints: { required: true }, hidden: false }, { id: 'iban', hidden: true }] });
    expect(ok.status).toBe(200);
    const fields = (ok.body as { fields: Field[] }).fields;
    const byId = new Map(fields.map((f) => [f.id, f]));
    for (const id of ['document_id', 'supplier_name', 'customer_name']) {
      expect(byId.get(id), id).toMatchObject({ hidden: false, constraints: { required: true }, locked: expect.stringContaining('always required') });
    }
    expect(byId.get('iban')).toMatchObject({ hidden: true });
    expect(byId.get('iban')!.locked).toBeUndefined();
  });

  it('a stored configuration that already made the invoice number optional and hidden no longer does', async () => {
    const { api, companyId } = await registeredUser(t.stack, 'reqold');
    const q = `company_id=${companyId}`;
    // Written as the earlier PUT /schemas accepted it.
    const current = await ddbContentSettings.readSchemaOverrides(companyId);
    const written = await ddbContentSettings.putSchemaOverrides(
      companyId,
      { document_id: { required: false, hidden: true }, supplier_name: { required: false }, iban: { hidden: true } },
      { updated_by: 'earlier', updated_at: '2026-01-01T00:00:00.000Z' },
      current.version,
    );
    expect(written).toBe(true);
    const fields = ((await api.get(`/schemas?${q}`)).body as { fields: Field[] }).fields;
    const byId = new Map(fields.map((f) => [f.id, f]));
    expect(byId.get('document_id')).toMatchObject({ hidden: false, constraints: { required: true } });
    expect(byId.get('supplier_name')).toMatchObject({ hidden: false, constraints: { required: true } });
    expect(byId.get('iban')).toMatchObject({ hidden: true });

    // A confirm is refused without a number, as the spec requires.
    const id = await uploadDocument(t.stack, api, companyId, await invoicePdf(), 'old-config.pdf');
    const content = (await api.get(`/receipts/${id}/content?${q}`)).body as { content: { id: string; schema_id: string; children: { id: string; schema_id: string }[] }[] };
    const number = content.content.flatMap((i) => [i, ...i.children]).find((i) => i.schema_id === 'document_id')!;
    const check = await api.post(`/receipts/${id}/content/validate?${q}`, { items: [{ id: number.id, value: '' }] });
    expect(check.status).toBe(200);
    expect(check.body).toEqual({ errors: [{ id: number.id, message: 'Required field' }] });
  });
});
