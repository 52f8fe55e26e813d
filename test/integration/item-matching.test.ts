/**
 * A document's lines matched to the company's item register through the real upload and processing (text-layer
 * invoices, local stand-ins): a new item sharing one word with an older one does not take over its lines, every
 * word the Items form accepts finds its item, a phrase word finds its item, an item stored under the former word
 * index is found once the search backfill has run, and a rename at the word limits leaves no index item of the old
 * name or words behind.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { ITEM_WORDS_MAX } from '../../shared/constants';
import type { ContentResponse } from '../../shared/schemas/content';
import { ddb } from '../../lambdas/adapters/ddb/client';
import { keys } from '../../lambdas/adapters/ddb/keys';
import { ddbMasterDataStore, masterItems } from '../../lambdas/adapters/ddb/master-data-store';
import { backfillMasterSearch } from '../../lambdas/adapters/ddb/search-backfill';
import { batchWrite, tableName } from '../../lambdas/adapters/ddb/table-ops';
import { matchLineItemsToRegister } from '../../lambdas/core/documents/counterparty';
import { newItemRecord } from '../../lambdas/core/master-data/items';
import { nameKey } from '../../lambdas/core/master-data/keys';
import type { ExtractedFields, FieldValue } from '../../lambdas/core/recognition/types';
import { findContentItem } from '../support/content-items';
import { registeredUser, startTestStack, type TestStack } from '../support/local-stack';
import { invoicePdf, SAMPLE_INVOICE, uploadDocument } from './content-fixtures';

type User = Awaited<ReturnType<typeof registeredUser>>;

const lineDescriptions = (c: ContentResponse) => (findContentItem(c.content, 'line_items')?.children ?? []).map((row) => row.children.find((x) => x.schema_id === 'description')?.content?.value);
const fv = (value: string): FieldValue => ({ value, page: 1, box: { left: 0.1, top: 0.1, width: 0.2, height: 0.02 }, confidence: 90 });

/** Fifty words of a stationery item, none of them on another test's lines. */
const STATIONERY = [
  'pen', 'pencil', 'stapler', 'staples', 'eraser', 'ruler', 'marker', 'folder', 'binder', 'envelope',
  'notebook', 'notepad', 'clipboard', 'scissors', 'glue', 'tape', 'sharpener', 'calculator', 'postit', 'label',
  'lanyard', 'badge', 'whiteboard', 'chalk', 'crayon', 'compass', 'protractor', 'paperclip', 'pushpin', 'thumbtack',
  'rubberband', 'correction', 'inkpad', 'stamp', 'ledger', 'journal', 'planner', 'organizer', 'divider', 'sleeve',
  'highlighter', 'laminator', 'shredder', 'puncher', 'trimmer', 'easel', 'pointer', 'toner', 'cartridge', 'flipchart',
];

describe('line items matched to the item register (uploaded invoices)', () => {
  let t: TestStack;
  let u: User;
  let q = '';
  beforeAll(async () => {
    t = await startTestStack();
    u = await registeredUser(t.stack, 'itemmatch');
    q = `?company_id=${u.companyId}`;
    for (const body of [
      { name: 'Printer paper A4', words: ['paper', 'A4', 'popierius'] },
      // Added later, sharing the word "paper"; its name sorts first.
      { name: 'Paper towels', words: ['paper', 'towels'] },
      { name: 'Stationery', words: STATIONERY },
      { name: 'Car wash service', words: ['car wash', 'automobilio plovimas'] },
    ]) {
      const res = await u.api.post(`/item${q}`, body);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
  }, 120_000);
  afterAll(async () => {
    await t?.stop();
  });

  async function linesOf(number: string, descriptions: string[]): Promise<(string | undefined)[]> {
    const lines = descriptions.map((description) => ({ description, qty: '1', price: '10.00', total: '10.00' }));
    const subtotal = (10 * lines.length).toFixed(2);
    const vat = (2.1 * lines.length).toFixed(2);
    const spec = { ...SAMPLE_INVOICE, number, lines, subtotal, vat, total: (Number(subtotal) + Number(vat)).toFixed(2) };
    const id = await uploadDocument(t.stack, u.api, u.companyId, await invoicePdf(spec), `${number}.pdf`);
    const res = await u.api.get(`/receipts/${id}/content${q}`);
    expect(res.status).toBe(200);
    return lineDescriptions(res.body as ContentResponse);
  }

  it('a new item sharing one word with an older item does not take over the lines of the older one', { timeout: 120_000 }, async () => {
    expect(await linesOf('IM-1', ['Printer paper A4 500 sheets', 'Paper towels 2 rolls'])).toEqual(['Printer paper A4', 'Paper towels']);
  });

  it('every word the form accepts finds its item: a line with only the last of its words gets the item name', { timeout: 120_000 }, async () => {
    expect(STATIONERY).toHaveLength(ITEM_WORDS_MAX);
    // Its only line: no other line of the document finds the item by another word.
    expect(await linesOf('IM-2', [`${STATIONERY.at(-1)!} stand`])).toEqual(['Stationery']);
  });

  it('an item with only phrase words is found for a line printing the phrase', { timeout: 120_000 }, async () => {
    expect(await linesOf('IM-3', ['Car wash premium', 'Automobilio plovimas'])).toEqual(['Car wash service', 'Car wash service']);
  });

  const match = async (description: string) =>
    (await matchLineItemsToRegister(ddbMasterDataStore, u.companyId, { vat_lines: [], line_items: [{ description: fv(description) }] } as ExtractedFields)).fields.line_items[0]!.description!.value;
  const wordPartition = async (word: string) =>
    (await ddb().send(new QueryCommand({ TableName: tableName(), KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': keys.itemWordPartition(u.companyId, word).pk } }))).Items ?? [];

  it('finds an item stored under the former word index, or whose write was interrupted, once the search backfill has run', { timeout: 120_000 }, async () => {
    const words = ['Bike polish', 'Dviračių tepalas', ...Array.from({ length: 44 }, (_, i) => `oldword${i}`)];
    const r = newItemRecord({ clock: { now: () => new Date(Date.UTC(2024, 0, 1)) } }, u.companyId, { name: 'Bicycle care', words });
    // As the former rule stored it: the record marked with the former version, one word item per folded word
    // (a phrase as one key), the first 40 words only.
    const current = masterItems(r);
    const template = current.find((i) => String(i.pk).startsWith('MDW#'))!;
    const legacy = [
      { ...current[0]!, msv: 2 },
      ...current.filter((i) => String(i.pk).startsWith('MDS#')),
      ...words.slice(0, 40).map((w) => ({ ...template, ...keys.itemWord(u.companyId, nameKey(w), r.name_id) })),
    ];
    // A write interrupted after its first transaction: the record marked unfinished, half of its word items missing.
    const cut = newItemRecord({ clock: { now: () => new Date(Date.UTC(2024, 0, 1)) } }, u.companyId, { name: 'Garden hoses', words: Array.from({ length: 20 }, (_, i) => `gardenhose${i}`) });
    const cutItems = masterItems(cut);
    const interrupted = [{ ...cutItems[0]!, msv: 0 }, ...cutItems.slice(1).filter((i) => !String(i.pk).startsWith('MDW#') || !/1\d$/.test(String(i.pk)))];
    await batchWrite([...legacy, ...interrupted].map((Item) => ({ PutRequest: { Item } })) as never);
    expect(await match('Oldword43 spray')).toBe('Oldword43 spray');
    expect(await match('Gardenhose19 25 m')).toBe('Gardenhose19 25 m');

    const result = await backfillMasterSearch();
    expect(result.rewritten).toBeGreaterThanOrEqual(1);
    expect(await match('Oldword43 spray')).toBe('Bicycle care');
    expect(await match('Bike polish 100 ml')).toBe('Bicycle care');
    expect(await match('Dviračių tepalas')).toBe('Bicycle care');
    expect(await match('Gardenhose19 25 m')).toBe('Garden hoses');
    // The former rule's phrase key is gone, the record is unchanged and marked; a second run has nothing to do.
    expect((await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.itemWord(u.companyId, 'bike polish', r.name_id) }))).Item).toBeUndefined();
    const stored = await ddb().send(new GetCommand({ TableName: tableName(), Key: { pk: current[0]!.pk, sk: current[0]!.sk } }));
    expect(stored.Item).toMatchObject({ name: 'Bicycle care', version: r.version, msv: 4 });
    expect(await backfillMasterSearch()).toEqual({ rewritten: 0, skipped: 0, removed: 0 });
  });

  it('a rename that changes every phrase word at the word limit leaves no index item of the old name or words', { timeout: 120_000 }, async () => {
    const before = Array.from({ length: ITEM_WORDS_MAX }, (_, i) => `blue hammer${i}`);
    const after = Array.from({ length: ITEM_WORDS_MAX }, (_, i) => `red chisel${i}`);
    expect((await u.api.post(`/item${q}`, { name: 'Workshop supplies', words: before })).status).toBe(201);
    expect(await match('Blue hammer49 large')).toBe('Workshop supplies');

    const res = await u.api.put(`/item${q}`, { name_id: 'workshop supplies', name: 'Workshop tools', words: after });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await match('Red chisel49 small')).toBe('Workshop tools');
    expect(await match('Red chisel0')).toBe('Workshop tools');
    expect(await match('Blue hammer49 large')).toBe('Blue hammer49 large');
    // No word partition holds the old name, and each new word's partition holds the current record.
    for (const word of ['blue', 'red', ...before.map((w) => w.split(' ')[1]!)]) {
      expect((await wordPartition(word)).map((i) => i.sk), word).not.toContain('workshop supplies');
    }
    for (const word of after.map((w) => w.split(' ')[1]!)) {
      expect((await wordPartition(word)).map((i) => ({ sk: i.sk, name: i.name, version: i.version })), word).toEqual([{ sk: 'workshop tools', name: 'Workshop tools', version: 2 }]);
    }
    const record = await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.masterRecord(u.companyId, 'ITEM', 'workshop tools') }));
    expect(record.Item).toMatchObject({ version: 2, msv: 4 });

    // Removing words removes their index items (and keeps the others current).
    const fewer = await u.api.put(`/item${q}`, { name_id: 'workshop tools', words: after.slice(0, 2) });
    expect(fewer.status, JSON.stringify(fewer.body)).toBe(200);
    expect(await match('Red chisel49 small')).toBe('Red chisel49 small');
    expect(await wordPartition('chisel49')).toEqual([]);
    expect((await wordPartition('chisel1')).map((i) => i.version)).toEqual([3]);
  });
});
