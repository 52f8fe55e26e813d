/**
 * Search answers as the user types (through the real handlers and the local stand-ins): every term, short or long,
 * matches the start of a word of the supplier/customer, the number or the file name, so one more letter only narrows
 * the list; a document number is also found typed without its dashes, slashes or spaces ("LT123" for LT-123); and
 * documents indexed under the former word rule are found so once the backfill has run.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { ddb } from '../../lambdas/adapters/ddb/client';
import { documentItem, documentItemsWithIndex } from '../../lambdas/adapters/ddb/documents-store';
import { keys } from '../../lambdas/adapters/ddb/keys';
import { batchWrite, tableName } from '../../lambdas/adapters/ddb/table-ops';
import { backfillSearchIndex } from '../../lambdas/adapters/ddb/search-backfill';
import { searchTextOf } from '../../lambdas/core/documents/list';
import type { DocumentRecord } from '../../lambdas/core/documents/types';
import { registeredUser, startTestStack, type TestStack } from '../support/local-stack';
import { listedIds } from '../support/list-pages';
import { seededDocument } from '../support/document-records';

type Api = Awaited<ReturnType<typeof registeredUser>>['api'];

function doc(companyId: string, i: number, over: Partial<DocumentRecord>): DocumentRecord {
  return seededDocument({
    receipt_id: `SWRD${companyId.slice(-6).toUpperCase().replace(/[^0-9A-Z]/g, 'X')}${String(i).padStart(4, '0')}`,
    scope: `C#${companyId}`,
    created_at: new Date(Date.UTC(2026, 2, 10) + i * 3600_000).toISOString(),
    receipt_type: i === 2 ? 'invoice' : 'receipt',
    status: 'review',
    issue_date: '2026-03-10',
    total: '1234.56',
    ...over,
  });
}

describe('search as the user types', () => {
  let t: TestStack;
  let api: Api;
  let companyId: string;
  let siluma: DocumentRecord;
  let maxima: DocumentRecord;
  let energija: DocumentRecord;

  async function search(term: string, extra = '', as: Api = api, company = companyId): Promise<string[]> {
    return listedIds(as, `company_id=${company}&search_value=${encodeURIComponent(term)}${extra}`);
  }

  beforeAll(async () => {
    t = await startTestStack();
    const u = await registeredUser(t.stack, 'search-words');
    api = u.api;
    companyId = u.companyId;
    siluma = doc(companyId, 0, { original_file_name: 'ŠILUMA kovo.jpg', counterparty_name: 'ŠIAULIŲ ENERGIJA', document_number: 'SE 77' });
    maxima = doc(companyId, 1, { original_file_name: 'maxima-kvitas.jpg', counterparty_name: 'MAXIMA LT, UAB', document_number: 'LT-123' });
    energija = doc(companyId, 2, { original_file_name: 'energija-kovas.jpg', counterparty_name: 'UAB Šiaulių energija', document_number: '2025/17' });
    await batchWrite([siluma, maxima, energija].flatMap((d) => documentItemsWithIndex(d).map((Item) => ({ PutRequest: { Item } }))));
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('matches word starts for short and long terms alike, so one more letter never brings back nothing', async () => {
    // Inside a word: neither a short nor a long term matches.
    for (const term of ['il', 'ilu', 'ilum', 'xi', 'axima', 'nergija']) expect({ term, found: await search(term) }).toEqual({ term, found: [] });
    // The start of a word: every prefix finds it, from one letter on.
    for (const term of ['s', 'si', 'Ši']) expect({ term, found: await search(term) }).toEqual({ term, found: [energija.receipt_id, siluma.receipt_id] });
    for (const term of ['sil', 'silu', 'ŠILUM', 'siluma']) expect({ term, found: await search(term) }).toEqual({ term, found: [siluma.receipt_id] });
    for (const term of ['m', 'ma', 'max', 'maxima']) expect({ term, found: await search(term) }).toEqual({ term, found: [maxima.receipt_id] });
    // Several short words: each starts a word, in any order; with the list's other filters.
    expect(await search('lt ma')).toEqual([maxima.receipt_id]);
    expect(await search('ua', '&receipt_type=invoice')).toEqual([energija.receipt_id]);
    expect(await search('ua')).toEqual([energija.receipt_id, maxima.receipt_id]);
    expect(await search('77')).toEqual([siluma.receipt_id]);
  });

  it('finds a document number typed without its punctuation or spaces', async () => {
    expect(await search('LT123')).toEqual([maxima.receipt_id]);
    expect(await search('lt12')).toEqual([maxima.receipt_id]);
    expect(await search('LT-123')).toEqual([maxima.receipt_id]);
    expect(await search('lt 123')).toEqual([maxima.receipt_id]);
    expect(await search('SE77')).toEqual([siluma.receipt_id]);
    expect(await search('se 77')).toEqual([siluma.receipt_id]);
    expect(await search('202517')).toEqual([energija.receipt_id]);
    expect(await search('2025/17')).toEqual([energija.receipt_id]);
    expect(await search('2025-17')).toEqual([energija.receipt_id]);
    // Not a run of digits that no number has.
    expect(await search('12317')).toEqual([]);
  });

  it('re-indexes documents of the former word rule with the backfill', async () => {
    const { api: own, companyId: id } = await registeredUser(t.stack, 'search-words-old');
    const old = doc(id, 5, { original_file_name: 'sąskaita.pdf', counterparty_name: 'Senas Tiekėjas', document_number: 'ST-9/88' });
    // As written before: search text of the former shape, index version 2, no search items of the current rule.
    await batchWrite([{ PutRequest: { Item: { ...documentItem(old), search_text: 'saskaita.pdf | senas tiekejas | st-9/88', siv: 2 } } }]);
    expect(await search('st988', '', own, id)).toEqual([]);
    await backfillSearchIndex();
    expect(await search('st988', '', own, id)).toEqual([old.receipt_id]);
    expect(await search('st', '', own, id)).toEqual([old.receipt_id]);
    expect(await search('ekejas', '', own, id)).toEqual([]);
    const stored = await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.document(old.receipt_id) }));
    expect(stored.Item?.search_text).toBe(searchTextOf(old));
  });
});
