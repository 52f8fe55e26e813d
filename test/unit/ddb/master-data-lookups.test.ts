/**
 * The DynamoDB master-data store's look-ups for matching documents (M6/M7, M10): the stakeholders sharing a VAT ID,
 * and the items of a document's line words when one word is common among the items.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { ddbMasterDataStore, masterItems } from '../../../lambdas/adapters/ddb/master-data-store';
import type { ItemRecord, StakeholderRecord } from '../../../lambdas/core/master-data/types';
import { mockDocumentTable } from '../../support/ddb-mock';

const ddbMock = mockDocumentTable();

const item = (name: string, words: string[]): ItemRecord => ({ name_id: name.toLowerCase(), company_id: 'c1', name, words, external: false, created_at: 'x', updated_at: 'x', version: 1 });
const wordItem = (i: ItemRecord, word: string) => masterItems(i).find((x) => x.pk === `MDW#c1#${word}`)!;

describe('ddb master-data look-ups for matching', () => {
  it('M10: every word of the lines is looked up, each with its share of the limit, when one word is common among the items', async () => {
    const common = Array.from({ length: 60 }, (_, i) => item(`Paslauga nr ${String(i).padStart(2, '0')}`, ['paslauga', `kodas${i}`]));
    const lavazza = item('Kava Lavazza Oro 1 kg', ['lavazza']);
    ddbMock.on(QueryCommand).callsFake((input: { ExpressionAttributeValues: { ':pk': string }; Limit: number }) => {
      const pk = input.ExpressionAttributeValues[':pk'];
      const all = pk === 'MDW#c1#paslauga' ? common.map((i) => wordItem(i, 'paslauga')) : pk === 'MDW#c1#lavazza' ? [wordItem(lavazza, 'lavazza')] : [];
      return { Items: all.slice(0, input.Limit), ...(all.length > input.Limit ? { LastEvaluatedKey: { pk, sk: 'x' } } : {}) };
    });
    const found = await ddbMasterDataStore.findItemsByWords('c1', ['paslauga', 'transporto', 'lavazza', 'oro'], 50);
    const queries = ddbMock.commandCalls(QueryCommand).map((c) => c.args[0].input);
    expect(queries.map((q) => q.ExpressionAttributeValues![':pk'])).toEqual(['MDW#c1#paslauga', 'MDW#c1#transporto', 'MDW#c1#lavazza', 'MDW#c1#oro']);
    expect(queries.every((q) => q.Limit! <= 50 / 4 + 1)).toBe(true);
    expect(found.map((i) => i.name)).toContain('Kava Lavazza Oro 1 kg');
    expect(found.length).toBeLessThanOrEqual(50);
    expect(found.filter((i) => i.name.startsWith('Paslauga')).length).toBeGreaterThan(0);
  });

  it('M6: reads up to the limit of the stakeholders sharing a VAT ID, oldest first', async () => {
    const s = (id: string, created_at: string): StakeholderRecord => ({
      id, company_id: 'c1', type: 'supplier', name: `Alfa ${id}`, code: id, vat_id: 'LT999999999', street: '', city: '', zipcode: '', country: '', email: '', delivery: '',
      category_id: null, selected_date_format: null, recognise_details: false, external: false, created_at, updated_at: created_at, version: 1,
    });
    const lookups = [s('111', '2025-01-01'), s('222', '2025-06-01')].map((r) => masterItems(r).find((x) => String(x.pk).startsWith('MDF#c1#supplier#vat#'))!);
    ddbMock.on(QueryCommand).resolves({ Items: lookups });
    const found = await ddbMasterDataStore.sameVatStakeholders('c1', 'supplier', 'lt 999-999-999', 5);
    expect(found.map((r) => r.code)).toEqual(['111', '222']);
    expect(found[0]).not.toHaveProperty('rid');
    expect(ddbMock.commandCalls(QueryCommand)[0]!.args[0].input).toMatchObject({ ExpressionAttributeValues: { ':pk': 'MDF#c1#supplier#vat#LT999999999' }, Limit: 5 });
    expect(await ddbMasterDataStore.sameVatStakeholders('c1', 'supplier', ' - ', 5)).toEqual([]);
    expect(ddbMock.commandCalls(QueryCommand)).toHaveLength(1);
  });
});
