/**
 * A confirm and the name the person typed (docs/decisions.md, "A confirm keeps the party name the person typed"):
 * the register's name replaces the document's only when the party is the register's by VAT ID, code or the same
 * name (normalised); a name one letter off another supplier's, with no identifier to tell, is a new supplier.
 * Recognition still reads an OCR slip as the register's supplier.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContentResponse } from '../../shared/schemas/content';
import { findContentItem } from '../support/content-items';
import { registeredUser, startTestStack, type TestStack } from '../support/local-stack';
import { invoicePdf, SAMPLE_INVOICE, uploadDocument } from './content-fixtures';

type User = Awaited<ReturnType<typeof registeredUser>>;
type Supplier = { id: string; name: string; code: string; vat_id: string };

const valueOf = (c: ContentResponse, id: string) => findContentItem(c.content, id)?.content?.value ?? '';

describe('a confirm keeps the party name the person typed', () => {
  let t: TestStack;
  beforeAll(async () => {
    t = await startTestStack();
  });
  afterAll(async () => {
    await t?.stop();
  });

  const q = (u: User) => `?company_id=${u.companyId}`;
  const contentOf = async (u: User, id: string) => (await u.api.get(`/receipts/${id}/content${q(u)}`)).body as ContentResponse;
  const receiptOf = async (u: User, id: string) => (await u.api.get(`/receipts/${id}${q(u)}`)).body as { stakeholder_id: string | null; status: string };
  const suppliers = async (u: User) => ((await u.api.get(`/stakeholders${q(u)}&type=supplier&with_external_data=1`)).body as { items: Supplier[] }).items;
  const registered = async (u: User, name: string, code: string) => {
    const res = await u.api.post(`/stakeholder${q(u)}`, { type: 'supplier', name, code });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return (res.body as { id: string }).id;
  };
  const upload = async (u: User, supplier: string, code: string, number: string) =>
    uploadDocument(t.stack, u.api, u.companyId, await invoicePdf({ ...SAMPLE_INVOICE, supplier, supplierCode: code, number }), `${number}.pdf`);

  it('a typed name one letter off a supplier of the register is confirmed as typed, as a new supplier', { timeout: 180_000 }, async () => {
    const u = await registeredUser(t.stack, 'typedname');
    const grudai = await registered(u, 'UAB Kauno Grudai', '302222333');
    const id = await upload(u, 'UAB Kitas Tiekejas', '305550001', 'KG-1');
    expect((await receiptOf(u, id)).stakeholder_id).toBeNull();
    const c = await contentOf(u, id);
    // The person types the supplier: a name one letter off the register's, no code (the printed VAT ID stays).
    const confirmed = await u.api.post(`/receipt/${id}${q(u)}&with_send=1`, {
      version: c.version,
      items: [
        { id: 'supplier_name', value: 'UAB Kauno Gradai' },
        { id: 'supplier_code', value: '' },
      ],
    });
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    const after = await contentOf(u, id);
    expect(valueOf(after, 'supplier_name')).toBe('UAB Kauno Gradai');
    const list = await suppliers(u);
    const gradai = list.find((s) => s.name === 'UAB Kauno Gradai');
    expect(gradai).toMatchObject({ code: valueOf(after, 'supplier_vat_id'), vat_id: valueOf(after, 'supplier_vat_id') });
    expect(await receiptOf(u, id)).toMatchObject({ status: 'archive', stakeholder_id: gradai!.id });
    expect(list.map((s) => s.id).sort()).toEqual([grudai, gradai!.id].sort());
  });

  it('a typed name of the register spelled otherwise, or a typed code, takes the register name and supplier', { timeout: 180_000 }, async () => {
    const u = await registeredUser(t.stack, 'typedexact');
    const grudai = await registered(u, 'UAB Kauno Grudai', '302222444');
    const byName = await upload(u, 'UAB Kitas Tiekejas', '305550002', 'KG-2');
    const c1 = await contentOf(u, byName);
    const one = await u.api.post(`/receipt/${byName}${q(u)}&with_send=1`, {
      version: c1.version,
      items: [
        { id: 'supplier_name', value: 'kauno grūdai, uab' },
        { id: 'supplier_code', value: '' },
      ],
    });
    expect(one.status, JSON.stringify(one.body)).toBe(200);
    expect(await receiptOf(u, byName)).toMatchObject({ stakeholder_id: grudai });
    expect(valueOf(await contentOf(u, byName), 'supplier_name')).toBe('UAB Kauno Grudai');

    const byCode = await upload(u, 'UAB Kitas Tiekejas', '305550003', 'KG-3');
    const c2 = await contentOf(u, byCode);
    const two = await u.api.post(`/receipt/${byCode}${q(u)}&with_send=1`, {
      version: c2.version,
      items: [
        { id: 'supplier_name', value: 'Grudai Kaunas' },
        { id: 'supplier_code', value: '302222444' },
      ],
    });
    expect(two.status, JSON.stringify(two.body)).toBe(200);
    expect(await receiptOf(u, byCode)).toMatchObject({ stakeholder_id: grudai });
    expect(valueOf(await contentOf(u, byCode), 'supplier_name')).toBe('UAB Kauno Grudai');
    expect(await suppliers(u)).toHaveLength(1);
  });

  it('recognition still reads a name one letter off as the register supplier', { timeout: 180_000 }, async () => {
    const u = await registeredUser(t.stack, 'typedocr');
    const grudai = await registered(u, 'UAB Kauno Grudai', '302222555');
    // Printed without a code the register could match: the name with one slip finds the supplier.
    const id = await upload(u, 'UAB Kauno Gradai', '', 'KG-4');
    expect((await receiptOf(u, id)).stakeholder_id).toBe(grudai);
    expect(valueOf(await contentOf(u, id), 'supplier_name')).toBe('UAB Kauno Grudai');
  });

  it('a name one letter off is suggested for review; a name typed over it keeps, and the register code goes with the link', { timeout: 180_000 }, async () => {
    const u = await registeredUser(t.stack, 'typedover');
    const grudai = await registered(u, 'UAB Kauno Grudai', '302222666');
    // The printed name alone (its VAT ID the register's supplier lacks): suggested, never ready by itself.
    const id = await upload(u, 'UAB Kauno Gradai', '', 'KG-5');
    expect(await receiptOf(u, id)).toMatchObject({ stakeholder_id: grudai, status: 'review' });
    const c = await contentOf(u, id);
    expect(valueOf(c, 'supplier_name')).toBe('UAB Kauno Grudai');
    expect(valueOf(c, 'supplier_code')).toBe('302222666');
    // The person puts the printed name back: another supplier than the register's.
    const confirmed = await u.api.post(`/receipt/${id}${q(u)}&with_send=1`, { version: c.version, items: [{ id: 'supplier_name', value: 'UAB Kauno Gradai' }] });
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    const after = await contentOf(u, id);
    expect(valueOf(after, 'supplier_name')).toBe('UAB Kauno Gradai');
    expect(valueOf(after, 'supplier_code')).toBe('');
    const gradai = (await suppliers(u)).find((s) => s.name === 'UAB Kauno Gradai');
    expect(gradai).toMatchObject({ code: 'LT100002222222', vat_id: 'LT100002222222' });
    expect(await receiptOf(u, id)).toMatchObject({ status: 'archive', stakeholder_id: gradai!.id });
  });
});
