import { BatchWriteCommand, GetCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { ddbMasterDataStore, decodeCursor, encodeCursor, masterItems, writeMasterRecord } from '../../../lambdas/adapters/ddb/master-data-store';
import { DuplicateKeyError } from '../../../lambdas/core/master-data/ports';
import type { CategoryRecord, ItemRecord, StakeholderRecord } from '../../../lambdas/core/master-data/types';
import { mockDocumentTable } from '../../support/ddb-mock';

const T = 'unit-table';
const ddbMock = mockDocumentTable(T);

const supplier = (over: Partial<StakeholderRecord> = {}): StakeholderRecord => ({
  id: 'S1',
  company_id: 'c1',
  type: 'supplier',
  name: 'Ąžuolas Trade UAB',
  code: 'K-1',
  vat_id: 'LT 100',
  street: '',
  city: '',
  zipcode: '',
  country: '',
  email: '',
  delivery: '',
  category_id: null,
  selected_date_format: null,
  recognise_details: false,
  external: false,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
  version: 1,
  ...over,
});

type TxItem = { Put?: { Item: Record<string, unknown>; ConditionExpression?: string; ExpressionAttributeValues?: Record<string, unknown> }; Delete?: { Key: Record<string, unknown>; ConditionExpression?: string } };
const txItems = (): TxItem[] => ddbMock.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems as TxItem[];
const keyOf = (t: TxItem) => (t.Put ? `Put ${t.Put.Item.pk} ${t.Put.Item.sk}` : `Delete ${t.Delete!.Key.pk} ${t.Delete!.Key.sk}`);

function canceled(codes: string[]) {
  return new TransactionCanceledException({
    message: 'Transaction cancelled',
    $metadata: {},
    CancellationReasons: codes.map((Code) => ({ Code })),
  });
}

describe('ddb master-data store (M1–M10)', () => {
  it('M4: creates a supplier with its list keys, guards, look-ups and search words in one transaction', async () => {
    ddbMock.on(TransactWriteCommand).resolves({});
    await ddbMasterDataStore.putStakeholder(supplier());
    const items = txItems();
    expect(items.map(keyOf)).toEqual([
      'Put MD#c1#STAKEHOLDER#S1 META',
      'Put MDS#c1#supplier#all azuolas#azuolas trade uab\u0001S1',
      'Put MDS#c1#supplier#all trade#azuolas trade uab\u0001S1',
      'Put MDS#c1#supplier#all uab#azuolas trade uab\u0001S1',
      // the code and the VAT ID written together ("K-1", "LT 100"), the VAT ID's digits, then the code's words, 5 at
      // most: found by their first characters
      'Put MDS#c1#supplier#all k1#azuolas trade uab\u0001S1',
      'Put MDS#c1#supplier#all lt100#azuolas trade uab\u0001S1',
      'Put MDS#c1#supplier#all 100#azuolas trade uab\u0001S1',
      'Put MDS#c1#supplier#all k#azuolas trade uab\u0001S1',
      'Put MDS#c1#supplier#all 1#azuolas trade uab\u0001S1',
      'Put MDU#c1#supplier#name#azuolas trade uab UNIQUE',
      'Put MDU#c1#supplier#code#K1 UNIQUE',
      'Put MDF#c1#supplier#vat#LT100 2026-01-01T00:00:00.000Z#S1',
      'Put MDF#c1#supplier#match_name#AZUOLAS TRADE 2026-01-01T00:00:00.000Z#S1',
    ]);
    const record = items[0]!.Put!;
    expect(record.ConditionExpression).toBe('attribute_not_exists(pk)');
    expect(record.Item).toMatchObject({
      gsi1pk: 'MDL#c1#supplier#all',
      gsi1sk: 'azuolas trade uab\u0001S1',
      gsi2pk: 'MDL#c1#supplier#own',
      gsi2sk: 'azuolas trade uab\u0001S1',
      name: 'Ąžuolas Trade UAB',
      version: 1,
    });
    const search = items[1]!.Put!.Item;
    expect(search).toMatchObject({ gsi1pk: 'MDS#c1#supplier#own', gsi1sk: 'azuolas#azuolas trade uab\u0001S1', rid: 'S1', sw: ['azuolas', 'trade', 'uab', 'k1', 'lt100', '100', 'k', '1'], name: 'Ąžuolas Trade UAB' });
    for (const guard of items.filter((i) => i.Put?.Item.sk === 'UNIQUE')) {
      expect(guard.Put!.ConditionExpression).toBe('attribute_not_exists(pk) OR rid = :rid');
      expect(guard.Put!.ExpressionAttributeValues).toEqual({ ':rid': 'S1' });
    }
  });

  it('M4: an update moves only what changed, conditioned on the version; kept keys are rewritten, not deleted', async () => {
    ddbMock.on(TransactWriteCommand).resolves({});
    const before = supplier();
    await ddbMasterDataStore.putStakeholder({ ...before, name: 'Ąžuolas Wood UAB', vat_id: '', version: 2 }, before);
    const items = txItems();
    expect(items[0]!.Put!.ConditionExpression).toBe('version = :v');
    expect(items[0]!.Put!.ExpressionAttributeValues).toEqual({ ':v': 1 });
    const deleted = items.filter((i) => i.Delete).map(keyOf);
    expect(deleted).toEqual([
      'Delete MDS#c1#supplier#all azuolas#azuolas trade uab\u0001S1',
      'Delete MDS#c1#supplier#all trade#azuolas trade uab\u0001S1',
      'Delete MDS#c1#supplier#all uab#azuolas trade uab\u0001S1',
      'Delete MDS#c1#supplier#all k1#azuolas trade uab\u0001S1',
      'Delete MDS#c1#supplier#all lt100#azuolas trade uab\u0001S1',
      'Delete MDS#c1#supplier#all 100#azuolas trade uab\u0001S1',
      'Delete MDS#c1#supplier#all k#azuolas trade uab\u0001S1',
      'Delete MDS#c1#supplier#all 1#azuolas trade uab\u0001S1',
      'Delete MDU#c1#supplier#name#azuolas trade uab UNIQUE',
      'Delete MDF#c1#supplier#vat#LT100 2026-01-01T00:00:00.000Z#S1',
      'Delete MDF#c1#supplier#match_name#AZUOLAS TRADE 2026-01-01T00:00:00.000Z#S1',
    ]);
    // The code guard is kept (rewritten with the new copy), so it is not also deleted.
    expect(items.filter((i) => i.Put).map(keyOf)).toContain('Put MDU#c1#supplier#code#K1 UNIQUE');
    const all = items.map(keyOf).map((k) => k.slice(k.indexOf(' ') + 1));
    expect(new Set(all).size).toBe(all.length);
  });

  it('M4: a cancelled transaction whose reason is a guard is a DuplicateKeyError naming the field', async () => {
    // record, 8 search words, name guard, code guard, vat, match_name
    ddbMock
      .on(TransactWriteCommand)
      .rejectsOnce(canceled(['None', 'None', 'None', 'None', 'None', 'None', 'None', 'None', 'None', 'None', 'ConditionalCheckFailed', 'None', 'None']))
      .rejectsOnce(canceled(['None', 'None', 'None', 'None', 'None', 'None', 'None', 'None', 'None', 'ConditionalCheckFailed', 'None', 'None', 'None']));
    await expect(ddbMasterDataStore.putStakeholder(supplier())).rejects.toEqual(new DuplicateKeyError('code'));
    await expect(ddbMasterDataStore.putStakeholder(supplier())).rejects.toMatchObject({ name: 'DuplicateKeyError', field: 'name' });
  });

  it('M4: a stale version stays a conflict (not a duplicate)', async () => {
    ddbMock.on(TransactWriteCommand).rejects(canceled(['ConditionalCheckFailed', 'None', 'None', 'None', 'None', 'None', 'None', 'None']));
    const before = supplier();
    const error = await ddbMasterDataStore.putStakeholder({ ...before, city: 'Vilnius', version: 2 }, before).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransactionCanceledException);
  });

  it('M4: a delete removes the record (conditioned on its version) and every derived item', async () => {
    ddbMock.on(TransactWriteCommand).resolves({});
    await ddbMasterDataStore.deleteStakeholder(supplier({ version: 3 }));
    const items = txItems();
    expect(items).toHaveLength(13);
    expect(items.every((i) => i.Delete)).toBe(true);
    expect(items[0]!.Delete).toMatchObject({ Key: { pk: 'MD#c1#STAKEHOLDER#S1', sk: 'META' }, ConditionExpression: 'version = :v' });
  });

  it('M4: a category without code has no code guard', async () => {
    ddbMock.on(TransactWriteCommand).resolves({});
    const cat: CategoryRecord = { id: 'K1', company_id: 'c1', name: 'Fuel', category_code: '', external: true, created_at: 'x', updated_at: 'x', version: 1 };
    await ddbMasterDataStore.putCategory(cat);
    expect(txItems().map(keyOf)).toEqual(['Put MD#c1#CATEGORY#K1 META', 'Put MDS#c1#category#all fuel#fuel\u0001K1', 'Put MDU#c1#category#name#fuel UNIQUE']);
    expect(txItems()[0]!.Put!.Item).toMatchObject({ gsi2pk: 'MDL#c1#category#external' });
  });

  it('M4: a stakeholder update at the word limits (a 40-word name, a code and a VAT ID of several words each) is one transaction of ≤ 100 items', async () => {
    const long = (tag: string) => Array.from({ length: 45 }, (_, i) => `${tag}${i}`).join(' ');
    const before = supplier({ name: long('alpha'), code: 'AB-12-CD-34', vat_id: 'LT 1000 2000 3000' });
    const after = { ...before, name: long('beta'), code: 'EF-56-GH-78', vat_id: 'SE 4000 5000 6000', version: 2 };
    ddbMock.on(TransactWriteCommand).resolves({});
    await ddbMasterDataStore.putStakeholder(after, before);
    expect(ddbMock.commandCalls(TransactWriteCommand)).toHaveLength(1);
    const items = txItems();
    expect(items.length).toBeLessThanOrEqual(100);
    expect(items.filter((i) => keyOf(i).startsWith('Put MDS#'))).toHaveLength(45);
  });

  it('M5: renaming an item moves its record; the new record key failing is the duplicate; ≤ 100 items even at the word limit', async () => {
    const words = Array.from({ length: 50 }, (_, i) => `word${i}`);
    const before: ItemRecord = { name_id: 'a b c d e f g h i j', company_id: 'c1', name: 'A B C D E F G H I J', words, external: false, created_at: 'x', updated_at: 'x', version: 1 };
    const after: ItemRecord = { ...before, name_id: 'k l m n o p q r s t', name: 'K L M N O P Q R S T', words: words.map((w) => `${w}x`), version: 2 };
    ddbMock.on(TransactWriteCommand).resolves({});
    await ddbMasterDataStore.putItem(after, before);
    const items = txItems();
    expect(items.length).toBeLessThanOrEqual(100);
    expect(keyOf(items[0]!)).toBe('Delete MD#c1#ITEM#a b c d e f g h i j META');
    expect(items[1]!.Put).toMatchObject({ Item: { pk: 'MD#c1#ITEM#k l m n o p q r s t' }, ConditionExpression: 'attribute_not_exists(pk)' });

    ddbMock.reset();
    ddbMock.on(TransactWriteCommand).rejects(canceled(['None', 'ConditionalCheckFailed', ...Array(90).fill('None')]));
    await expect(ddbMasterDataStore.putItem(after, before)).rejects.toEqual(new DuplicateKeyError('name'));
  });

  it('M5: a write of more item words than one transaction holds deletes every old word with the record, then puts the rest conditioned on the version', async () => {
    const before: ItemRecord = { name_id: 'tools', company_id: 'c1', name: 'Tools', words: Array.from({ length: 50 }, (_, i) => `blue hammer${i}`), external: false, created_at: 'x', updated_at: 'x', version: 4 };
    const after: ItemRecord = { ...before, name_id: 'kit', name: 'Kit', words: Array.from({ length: 50 }, (_, i) => `red chisel${i}`), version: 5 };
    ddbMock.on(TransactWriteCommand).resolves({});
    ddbMock.on(BatchWriteCommand).resolves({});
    await ddbMasterDataStore.putItem(after, before);
    const calls = ddbMock.commandCalls(TransactWriteCommand).map((c) => c.args[0].input.TransactItems as Record<string, Record<string, unknown>>[]);
    expect(calls.length).toBeGreaterThan(1);
    for (const items of calls) expect(items.length).toBeLessThanOrEqual(100);
    const [first, ...later] = calls;
    // Every index item of the old name and words goes with the record, none later.
    const deletes = first!.filter((i) => i.Delete).map((i) => (i.Delete!.Key as { pk: string }).pk);
    expect(deletes.filter((pk) => pk.startsWith('MDW#'))).toHaveLength(51);
    for (const items of later) expect(items.filter((i) => i.Delete)).toEqual([]);
    // The record is marked unfinished until the last later transaction, which is conditioned on its version.
    expect(first!.find((i) => (i.Put?.Item as { pk?: string } | undefined)?.pk === 'MD#c1#ITEM#kit')!.Put!.Item).toMatchObject({ msv: 0, version: 5 });
    for (const items of later.slice(0, -1)) expect(items[0]!.ConditionCheck).toMatchObject({ Key: { pk: 'MD#c1#ITEM#kit', sk: 'META' }, ExpressionAttributeValues: { ':v': 5 } });
    expect(later.at(-1)![0]!.Update).toMatchObject({ Key: { pk: 'MD#c1#ITEM#kit', sk: 'META' }, UpdateExpression: 'SET msv = :msv', ConditionExpression: 'version = :v', ExpressionAttributeValues: { ':msv': 4, ':v': 5 } });
    const puts = calls.flat().flatMap((i) => ((i.Put?.Item as { pk?: string } | undefined)?.pk?.startsWith('MDW#') ? [i.Put!.Item as { pk: string; sk: string }] : []));
    expect(puts.map((i) => i.pk).sort()).toEqual(['MDW#c1#red', ...after.words.map((w) => `MDW#c1#${w.split(' ')[1]}`)].sort());
    expect(new Set(puts.map((i) => i.sk))).toEqual(new Set(['kit']));
    // The keys the former rule gave the old phrases (never looked up) that the transactions had no room for.
    const legacy = ddbMock.commandCalls(BatchWriteCommand).flatMap((c) => (c.args[0].input.RequestItems![T] ?? []).map((r) => `${r.DeleteRequest!.Key!.pk} ${r.DeleteRequest!.Key!.sk}`));
    const deleted = [...legacy, ...first!.filter((i) => i.Delete).map((i) => `${(i.Delete!.Key as { pk: string }).pk} ${(i.Delete!.Key as { sk: string }).sk}`)];
    for (const w of before.words.slice(0, 40)) expect(deleted).toContain(`MDW#c1#${w} tools`);

    // A later transaction refused because the record changed meanwhile leaves the index to that change.
    ddbMock.reset();
    ddbMock.on(TransactWriteCommand).resolvesOnce({}).rejects(canceled(['ConditionalCheckFailed', ...Array(60).fill('None')]));
    ddbMock.on(BatchWriteCommand).resolves({});
    await expect(ddbMasterDataStore.putItem(after, before)).resolves.toBeUndefined();
    expect(ddbMock.commandCalls(TransactWriteCommand)).toHaveLength(2);
  });

  it('M5: an item word is indexed by each word of a phrase, and a write deletes the keys the former rule gave its phrases', async () => {
    const item: ItemRecord = { name_id: 'car wash', company_id: 'c1', name: 'Car wash', words: ['car wash', 'Automobilio plovimas', 'Post-it', '500', 'A4'], external: false, created_at: 'x', updated_at: 'x', version: 1 };
    const wordKeys = masterItems(item).flatMap((i) => (String(i.pk).startsWith('MDW#') ? [String(i.pk).slice('MDW#c1#'.length)] : []));
    expect(wordKeys).toEqual(['wash', 'automobilio', 'post', 'a4', 'car', 'plovimas', 'it']);
    ddbMock.on(TransactWriteCommand).resolves({});
    await ddbMasterDataStore.putItem({ ...item, version: 2 }, item);
    // "500" had a key of the former rule too; no line looks a number up.
    expect(txItems().filter((t) => t.Delete).map(keyOf)).toEqual(['Delete MDW#c1#car wash car wash', 'Delete MDW#c1#automobilio plovimas car wash', 'Delete MDW#c1#post-it car wash', 'Delete MDW#c1#500 car wash']);
  });

  it('M2: a list page is one query of limit + 1 on the list partition; the cursor continues after the last row', async () => {
    const rows = ['a', 'b', 'c'].map((n, i) => masterItems(supplier({ id: `S${i}`, name: n, code: n }))[0]!);
    ddbMock.on(QueryCommand).resolves({ Items: rows, Count: 3, ScannedCount: 3, LastEvaluatedKey: { pk: 'x' } });
    const page = await ddbMasterDataStore.listStakeholders({ companyId: 'c1', type: 'supplier', source: 'own', limit: 2 });
    const calls = ddbMock.commandCalls(QueryCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.args[0].input).toMatchObject({ IndexName: 'gsi2', KeyConditionExpression: 'gsi2pk = :pk', ExpressionAttributeValues: { ':pk': 'MDL#c1#supplier#own' }, Limit: 3 });
    expect(page.items.map((r) => r.name)).toEqual(['a', 'b']);
    expect(page.items[0]).not.toHaveProperty('pk');
    expect(page.items[0]).not.toHaveProperty('entity');
    expect(decodeCursor(page.cursor!, '')).toEqual({ a: 'b\u0001S1', w: '' });

    ddbMock.reset();
    ddbMock.on(QueryCommand).resolves({ Items: [rows[2]], Count: 1, ScannedCount: 1 });
    const second = await ddbMasterDataStore.listStakeholders({ companyId: 'c1', type: 'supplier', source: 'all', limit: 2, cursor: page.cursor! });
    expect(ddbMock.commandCalls(QueryCommand)[0]!.args[0].input).toMatchObject({
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk > :after',
      ExpressionAttributeValues: { ':pk': 'MDL#c1#supplier#all', ':after': 'b\u0001S1' },
    });
    expect(second).toMatchObject({ cursor: null });
  });

  it('M3: a one-word search page is one begins_with query on the search partition of that word', async () => {
    const hit = masterItems(supplier())[2]!; // the "trade" search item
    ddbMock.on(QueryCommand).resolves({ Items: [hit], Count: 1, ScannedCount: 1 });
    const page = await ddbMasterDataStore.listStakeholders({ companyId: 'c1', type: 'supplier', source: 'all', limit: 50, search: 'tra' });
    const calls = ddbMock.commandCalls(QueryCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.args[0].input).toMatchObject({ KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)', ExpressionAttributeValues: { ':pk': 'MDS#c1#supplier#all', ':prefix': 'tra' }, Limit: 51 });
    expect(calls[0]!.args[0].input.IndexName).toBeUndefined();
    expect(page.items.map((r) => r.id)).toEqual(['S1']);
    expect(page.cursor).toBeNull();
  });

  it('M3: several typed words: the first page of each is read and the rarest is the query word, its items reused; later pages keep it', async () => {
    const az = masterItems(supplier())[1]!; // "azuolas#…"
    const many = Array.from({ length: 200 }, (_, i) => masterItems(supplier({ id: `T${i}`, name: `Trade ${String(i).padStart(3, '0')}` }))[1]!);
    ddbMock.on(QueryCommand, { ExpressionAttributeValues: { ':pk': 'MDS#c1#supplier#all', ':prefix': 'trade' } }).resolves({ Items: many, LastEvaluatedKey: { pk: 'x', sk: 'y' } });
    ddbMock.on(QueryCommand, { ExpressionAttributeValues: { ':pk': 'MDS#c1#supplier#all', ':prefix': 'az' } }).resolves({ Items: [az] });
    const page = await ddbMasterDataStore.listStakeholders({ companyId: 'c1', type: 'supplier', source: 'all', limit: 8, search: 'Trade Az' });
    const prefixes = ddbMock.commandCalls(QueryCommand).map((c) => c.args[0].input.ExpressionAttributeValues![':prefix']);
    // one first page of each word, nothing read after: "az" ended with one item, and that item is the page
    expect(prefixes.sort()).toEqual(['az', 'trade']);
    expect(page.items.map((r) => r.id)).toEqual(['S1']);
    expect(page.cursor).toBeNull();

    // A later page names its word: no word is compared again, and a word not typed is refused.
    ddbMock.reset();
    ddbMock.on(QueryCommand).resolves({ Items: [] });
    const cursor = encodeCursor({ a: 'trade#trade 199\u0001T199', w: 'trade' });
    await ddbMasterDataStore.listStakeholders({ companyId: 'c1', type: 'supplier', source: 'all', limit: 8, search: 'Trade Az', cursor });
    const later = ddbMock.commandCalls(QueryCommand);
    expect(later).toHaveLength(1);
    expect(later[0]!.args[0].input.ExpressionAttributeValues).toMatchObject({ ':lo': 'trade#trade 199\u0001T199', ':hi': 'trade~' });
    await expect(
      ddbMasterDataStore.listStakeholders({ companyId: 'c1', type: 'supplier', source: 'all', limit: 8, search: 'Az', cursor }),
    ).rejects.toMatchObject({ kind: 'BadRequest' });
  });

  it('M3/M4/M12: every word of a long name gets a search item, "&" separates words; the backfill rewriting a record of a former rule removes its search items', async () => {
    ddbMock.on(TransactWriteCommand).resolves({});
    const long = supplier({ name: 'Vilniaus miesto savivaldybės administracijos Turto valdymo ir ūkio skyrius', vat_id: '' });
    await ddbMasterDataStore.putStakeholder(long);
    const words = txItems()
      .map(keyOf)
      .filter((k) => k.startsWith('Put MDS#'))
      .map((k) => k.split(' ')[2]!.split('#')[0]);
    expect(words).toEqual(['vilniaus', 'miesto', 'savivaldybes', 'administracijos', 'turto', 'valdymo', 'ir', 'ukio', 'skyrius', 'k1', 'k', '1']);

    ddbMock.reset();
    ddbMock.on(TransactWriteCommand).resolves({});
    const ab = supplier({ name: 'A&B Prekyba', vat_id: '' });
    await ddbMasterDataStore.putStakeholder({ ...ab, version: 2 }, ab);
    const keysOf = txItems().map(keyOf);
    const current = ['a', 'b', 'prekyba', 'k1', 'k', '1'].map((w) => `Put MDS#c1#supplier#all ${w}#a&b prekyba\u0001S1`);
    expect(keysOf.filter((k) => k.startsWith('Put MDS#'))).toEqual(current);
    // A write that does not know the stored rule deletes only what the current rule wrote and no longer writes.
    expect(keysOf.filter((k) => k.startsWith('Delete'))).toEqual([]);

    // The backfill's write of a record stored without `msv` (the first word rule, the former sort key) deletes
    // the "a&b" item of that rule and each word's item under the former sort key; of one stored with msv 2, the
    // same keys (a store of rule 2 never wrote "a&b": its delete is a no-op); of the current rule, none.
    const former = ['a', 'b', 'prekyba', 'a&b'].map((w) => `Delete MDS#c1#supplier#all ${w}#a&b prekyba#S1`);
    for (const [rule, deletes] of [[0, former], [2, former], [3, []]] as const) {
      ddbMock.reset();
      ddbMock.on(TransactWriteCommand).resolves({});
      await writeMasterRecord(ab, ab, rule);
      expect(txItems().map(keyOf).filter((k) => k.startsWith('Delete')), `rule ${rule}`).toEqual(deletes);
      expect(txItems().map(keyOf).filter((k) => k.startsWith('Put MDS#')), `rule ${rule}`).toEqual(current);
    }
  });

  it('M2: a name sorts before the longer names it starts, whatever follows it ("office" before "office supplies")', () => {
    const category = (id: string, name: string): CategoryRecord => ({ id, company_id: 'c1', name, category_code: '', external: false, created_at: 'x', updated_at: 'x', version: 1 });
    const names = ['Office supplies', 'Office', 'office!', 'OFFICE "A"', 'Office-2', 'Offices', 'Office\u0002x'];
    const sorted = names.map((name, i) => masterItems(category(`K${i}`, name))).sort((a, b) => (String(a[0]!.gsi1sk) < String(b[0]!.gsi1sk) ? -1 : 1));
    // Each name before the longer names it starts; then by the character that follows (space, then signs, letters);
    // a control character is left out of the key.
    expect(sorted.map((items) => items[0]!.name)).toEqual(['Office', 'OFFICE "A"', 'Office supplies', 'office!', 'Office-2', 'Offices', 'Office\u0002x']);
    // The search items follow the same order under each word.
    const office = sorted.flatMap((items) => items.flatMap((i) => (String(i.sk).startsWith('office#') ? [String(i.sk)] : [])));
    expect(office).toHaveLength(6);
    expect([...office].sort()).toEqual(office);
  });

  it('refuses tampered cursors with a 400', () => {
    const good = encodeCursor({ a: 'b#S1', w: '' });
    expect(decodeCursor(good, '')).toEqual({ a: 'b#S1', w: '' });
    for (const bad of ['***', 'e30', encodeCursor({ a: 'b', w: 'x' }), Buffer.from('{"a":"x","w":"","z":1}').toString('base64url'), Buffer.from('null').toString('base64url')]) {
      expect(() => decodeCursor(bad, ''), bad).toThrow(expect.objectContaining({ kind: 'BadRequest', message: 'Invalid next cursor' }));
    }
    expect(() => decodeCursor(encodeCursor({ a: 'zzz#1', w: 'ab' }), 'ab')).toThrow(expect.objectContaining({ kind: 'BadRequest' }));
    expect(() => decodeCursor(encodeCursor({ a: 'ab\u00ff#1', w: 'ab' }), 'ab')).toThrow(expect.objectContaining({ kind: 'BadRequest' }));
    expect(decodeCursor(encodeCursor({ a: 'abc#abc x#1', w: 'ab' }), 'ab')).toEqual({ a: 'abc#abc x#1', w: 'ab' });
  });

  it('M6/M7: finds a stakeholder by code and name through the guards, by VAT ID and recognition name through the look-ups', async () => {
    const copy = masterItems(supplier())[4]!;
    ddbMock.on(GetCommand).resolves({ Item: copy });
    ddbMock.on(QueryCommand).resolves({ Items: [copy] });
    expect((await ddbMasterDataStore.findStakeholder('c1', 'supplier', 'code', 'k 1'))?.id).toBe('S1');
    expect(ddbMock.commandCalls(GetCommand)[0]!.args[0].input.Key).toEqual({ pk: 'MDU#c1#supplier#code#K1', sk: 'UNIQUE' });
    expect((await ddbMasterDataStore.findStakeholder('c1', 'supplier', 'name', 'AZUOLAS trade uab'))?.name).toBe('Ąžuolas Trade UAB');
    expect(ddbMock.commandCalls(GetCommand)[1]!.args[0].input.Key).toEqual({ pk: 'MDU#c1#supplier#name#azuolas trade uab', sk: 'UNIQUE' });
    await ddbMasterDataStore.findStakeholder('c1', 'supplier', 'vat', 'lt-100');
    expect(ddbMock.commandCalls(QueryCommand)[0]!.args[0].input).toMatchObject({ ExpressionAttributeValues: { ':pk': 'MDF#c1#supplier#vat#LT100' }, Limit: 1 });
    const [found] = await ddbMasterDataStore.sameNameStakeholders('c1', 'supplier', 'Azuolas Trade, UAB', 1);
    expect(found).not.toHaveProperty('rid');
    expect(await ddbMasterDataStore.findStakeholder('c1', 'supplier', 'code', ' ')).toBeUndefined();
    // Matching by name reads the few stakeholders that share the recognition name (companies of one group).
    const same = await ddbMasterDataStore.sameNameStakeholders('c1', 'supplier', 'Azuolas Trade, UAB', 5);
    expect(same.map((r) => r.id)).toEqual(['S1']);
    expect(ddbMock.commandCalls(QueryCommand).at(-1)!.args[0].input).toMatchObject({ ExpressionAttributeValues: { ':pk': 'MDF#c1#supplier#match_name#AZUOLAS TRADE' }, Limit: 5 });
    expect(await ddbMasterDataStore.sameNameStakeholders('c1', 'supplier', ' ', 5)).toEqual([]);
  });

  it('M10: finds items by their words, one query per distinct word, each item once', async () => {
    const item: ItemRecord = { name_id: 'coffee', company_id: 'c1', name: 'Coffee', words: ['kava', 'Coffee'], external: false, created_at: 'x', updated_at: 'x', version: 1 };
    const wordItem = masterItems(item).find((i) => String(i.pk).startsWith('MDW#'))!;
    ddbMock.on(QueryCommand).resolves({ Items: [wordItem] });
    const found = await ddbMasterDataStore.findItemsByWords('c1', ['KAVA', 'kava', 'coffee', ' '], 5);
    expect(ddbMock.commandCalls(QueryCommand).map((c) => c.args[0].input.ExpressionAttributeValues![':pk'])).toEqual(['MDW#c1#kava', 'MDW#c1#coffee']);
    expect(found).toEqual([item]);
  });
});
