/**
 * Matching a document's party and lines to the company's master data against the local stand-ins (the processing's
 * look-ups over the DynamoDB store; suppliers and items written through the API): suppliers sharing a VAT ID, a VAT
 * ID printed without its country letters, a name read with an OCR slip among many names sharing a word, and line
 * items when one of their words is common among the company's items.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ddbMasterDataStore } from '../../lambdas/adapters/ddb/master-data-store';
import { matchLineItemsToRegister, matchParty } from '../../lambdas/core/documents/counterparty';
import type { ExtractedFields, FieldValue } from '../../lambdas/core/recognition/types';
import { registeredUser, startTestStack, type TestStack } from '../support/local-stack';

type User = Awaited<ReturnType<typeof registeredUser>>;

const fv = (value: string): FieldValue => ({ value, page: 1, box: { left: 0.1, top: 0.1, width: 0.2, height: 0.02 }, confidence: 90 });

async function post(u: User, path: string, bodies: Record<string, unknown>[]): Promise<{ id: string; name: string }[]> {
  const out: { id: string; name: string }[] = [];
  for (let i = 0; i < bodies.length; i += 10) {
    const results = await Promise.all(bodies.slice(i, i + 10).map((b) => u.api.post(`${path}?company_id=${u.companyId}`, b)));
    for (const r of results) {
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      out.push(r.body as { id: string; name: string });
    }
  }
  return out;
}

describe('matching documents to master data (local stand-ins)', () => {
  let t: TestStack;
  let u: User;
  beforeAll(async () => {
    t = await startTestStack();
    u = await registeredUser(t.stack, 'mdmatching');
    // One after the other: the first is the older.
    await post(u, '/stakeholder', [{ type: 'supplier', name: 'Alfa Trade UAB', code: '111111111', vat_id: 'LT999999999' }]);
    await post(u, '/stakeholder', [{ type: 'supplier', name: 'Alfa Trade Logistika UAB', code: '222222222', vat_id: 'LT999999999' }]);
    await post(u, '/stakeholder', [
      { type: 'supplier', name: 'UAB „Ąžuolų šilas“', code: '00123 45', vat_id: 'LT100001234567' },
      { type: 'supplier', name: 'Transportas Žuikis UAB', code: '333333333' },
      // More names with the word "Transportas" than one page of candidates, all before it in the search order.
      ...Array.from({ length: 30 }, (_, i) => ({ type: 'supplier', name: `${String.fromCharCode(65 + (i % 26))}${'a'.repeat(1 + Math.floor(i / 26))} Transportas`, code: `30100${String(i).padStart(4, '0')}` })),
    ]);
  }, 120_000);
  afterAll(async () => {
    await t?.stop();
  });

  const match = (keys: { name?: string; code?: string; vat_id?: string }) => matchParty(ddbMasterDataStore, u.companyId, 'supplier', keys);

  it('of suppliers sharing a VAT ID, the document code or name picks the one, else the oldest is taken', async () => {
    expect(await match({ name: 'Alfa Trade Logistika UAB', vat_id: 'LT999999999', code: '222222222' })).toMatchObject({ by: 'vat_id', stakeholder: { name: 'Alfa Trade Logistika UAB' } });
    expect(await match({ name: 'ALFA TRADE', vat_id: 'LT 999999999', code: '222 222 222' })).toMatchObject({ by: 'vat_id', stakeholder: { name: 'Alfa Trade Logistika UAB' } });
    expect(await match({ name: 'Alfa Trade Logistika UAB', vat_id: 'LT999999999' })).toMatchObject({ by: 'vat_id', stakeholder: { name: 'Alfa Trade Logistika UAB' } });
    expect(await match({ name: 'Kažkas', vat_id: 'LT999999999' })).toMatchObject({ by: 'vat_id', stakeholder: { name: 'Alfa Trade UAB' } });
    expect(await match({ name: 'Alfa Trade UAB', vat_id: 'LT999999999', code: '111111111' })).toMatchObject({ by: 'vat_id', stakeholder: { name: 'Alfa Trade UAB' } });
  });

  it('a VAT ID printed without its country letters finds the supplier registered with LT', async () => {
    expect(await match({ name: 'Nepažįstamas', vat_id: '100001234567' })).toMatchObject({ by: 'vat_id', stakeholder: { name: 'UAB „Ąžuolų šilas“' } });
    // Printed with them, the register's own spelling is found as before.
    expect(await match({ vat_id: 'LT 1000 0123 4567' })).toMatchObject({ by: 'vat_id', stakeholder: { name: 'UAB „Ąžuolų šilas“' } });
  });

  it('a name read with an OCR slip is found among more suppliers sharing its other word than one page holds', async () => {
    expect(await match({ name: 'Transportas Žuiklis UAB' })).toMatchObject({ by: 'name', stakeholder: { name: 'Transportas Žuikis UAB' } });
    expect(await match({ name: 'Ąžuolų šilss' })).toMatchObject({ by: 'name', stakeholder: { name: 'UAB „Ąžuolų šilas“' } });
    // A new party sharing only the common word is not taken for one of them.
    expect(await match({ name: 'Transportas Vilkas UAB' })).toBeUndefined();
  });

  it('a line matches its item when another word of the lines is common among the company items', async () => {
    const items = [
      ...Array.from({ length: 60 }, (_, i) => ({ name: `Paslauga nr ${i}`, words: ['paslauga', `kodas${i}`] })),
      { name: 'Kava Lavazza Oro 1 kg', words: ['lavazza'] },
    ];
    await post(u, '/item', items);
    const fields: ExtractedFields = { vat_lines: [], line_items: [{ description: fv('Paslauga transporto') }, { description: fv('LAVAZZA Oro kava 1kg') }] };
    const out = await matchLineItemsToRegister(ddbMasterDataStore, u.companyId, fields);
    // "Paslauga" is a word of 60 items alike: none of them is the line's (matchItem takes no item by its place).
    expect(out.fields.line_items.map((l) => l.description?.value)).toEqual(['Paslauga transporto', 'Kava Lavazza Oro 1 kg']);
    expect(out.matched).toBe(1);
  });
});
