/**
 * Master-data name search in a large register (docs/data-model.md M3): a name is found by any of its words even
 * when another typed word is shared by thousands of names, every word of a long name is searchable, "&" is one
 * rule in the name and in the typed text, and a search paged to its end lists each match once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { ddb } from '../../lambdas/adapters/ddb/client';
import { MASTER_SORT_NAME_END } from '../../lambdas/adapters/ddb/keys';
import { MASTER_SEARCH_VERSION, masterItems } from '../../lambdas/adapters/ddb/master-data-store';
import { backfillMasterSearch } from '../../lambdas/adapters/ddb/search-backfill';
import { batchWrite, tableName } from '../../lambdas/adapters/ddb/table-ops';
import { searchWords } from '../../lambdas/core/master-data/keys';
import { newCategoryRecord } from '../../lambdas/core/master-data/categories';
import { newStakeholderRecord } from '../../lambdas/core/master-data/stakeholders';
import { registeredUser, startTestStack, type TestStack } from '../support/local-stack';

type PageBody = { items: { name: string }[]; next: string | null };

/** A current sort key as the store wrote it before MASTER_SEARCH_VERSION 3 (`<name>#<id>`). */
const formerSortKey = (sortKey: string) => sortKey.replace(MASTER_SORT_NAME_END, '#');

/** Filler names that sort before the searched ones under their common word: more than one page budget of them. */
const FILLERS = 1000;
const SYL = ['ka', 'ro', 'mi', 'ne', 'tu', 'sa', 'li', 'po', 've', 'da'];
const filler = (i: number) => {
  let n = i;
  let w = '';
  do {
    w += SYL[n % SYL.length];
    n = Math.floor(n / SYL.length);
  } while (n > 0);
  return w.charAt(0).toUpperCase() + w.slice(1);
};

async function seed(companyId: string) {
  const requests: unknown[] = [];
  for (let i = 0; i < FILLERS; i++) {
    for (const [j, common] of ['Transportas', 'Prekyba'].entries()) {
      const r = newStakeholderRecord(
        { ids: { newId: () => `F${j}${String(i).padStart(8, '0')}` }, clock: { now: () => new Date(Date.UTC(2024, 0, 1) + i * 1000) } },
        companyId,
        'supplier',
        { name: `${filler(i)} ${common}${i % 3 === 0 ? ' UAB' : ''}`, code: `${j + 1}${String(i).padStart(8, '0')}` },
        {},
      );
      for (const Item of masterItems(r)) requests.push({ PutRequest: { Item } });
    }
  }
  await batchWrite(requests as never);
}

describe('master-data search in a large register', () => {
  let t: TestStack;
  let api: Awaited<ReturnType<typeof registeredUser>>['api'];
  let q = '';
  beforeAll(async () => {
    t = await startTestStack();
    const user = await registeredUser(t.stack, 'mdbig');
    api = user.api;
    q = `?company_id=${user.companyId}&type=supplier&with_external_data=1`;
    await seed(user.companyId);
    const names = [
      'Transportas Žuikis UAB',
      'Prekyba Šilutė MB',
      'A&B Prekyba',
      'Vilniaus miesto savivaldybės administracijos Turto valdymo ir ūkio skyrius',
    ];
    for (const [i, name] of names.entries()) expect((await api.post(`/stakeholder?company_id=${user.companyId}`, { type: 'supplier', name, code: `T${i}` })).status).toBe(201);
  }, 120_000);
  afterAll(async () => {
    await t?.stop();
  });

  const first = async (text: string, limit: number) =>
    (await api.get(`/stakeholders${q}&limit=${limit}&search_name=${encodeURIComponent(text)}`)).body as PageBody;

  it('finds a name on the first page of 8 while another typed word is shared by a thousand names', async () => {
    for (const typed of ['Transportas Žui', 'Transportas Žuikis', 'Transportas Žuikis UAB', 'transportas zuikis']) {
      expect((await first(typed, 8)).items.map((r) => r.name), typed).toEqual(['Transportas Žuikis UAB']);
    }
    for (const typed of ['Prekyba Šil', 'Prekyba Šilutė MB', 'šilutė prekyba']) {
      expect((await first(typed, 8)).items.map((r) => r.name), typed).toEqual(['Prekyba Šilutė MB']);
    }
    // One common word alone still lists its names, 8 at a time, with more to come.
    const common = await first('Transportas', 8);
    expect(common.items).toHaveLength(8);
    expect(common.next).not.toBeNull();
  });

  it('finds a long name by its last word, and "A & B" and "a&b" find "A&B Prekyba"', async () => {
    for (const typed of ['skyrius', 'ūkio skyrius', 'Turto valdymo']) {
      expect((await first(typed, 50)).items.map((r) => r.name), typed).toEqual(['Vilniaus miesto savivaldybės administracijos Turto valdymo ir ūkio skyrius']);
    }
    for (const typed of ['A & B', 'A&B', 'a&b prek', 'A & B Prekyba']) {
      expect((await first(typed, 50)).items.map((r) => r.name), typed).toEqual(['A&B Prekyba']);
    }
  });

  it('finds suppliers stored under the former word rule once the search backfill has run', async () => {
    const other = await registeredUser(t.stack, 'mdlegacy');
    const name = 'C&D Kauno regiono Pirmasis Antrasis Trečiasis Ketvirtasis Penktasis Šeštasis Paskutinis';
    const r = newStakeholderRecord({ ids: { newId: () => 'LEGACY000001' }, clock: { now: () => new Date(Date.UTC(2024, 0, 1)) } }, other.companyId, 'supplier', { name, code: 'L1' }, {});
    // As the former rule stored it: no rule mark on the record, search items for its first 8 words with "&" kept,
    // under the former sort key (`<word>#<name>#<id>`).
    const current = masterItems(r);
    const template = current.find((i) => String(i.pk).startsWith('MDS#'))!;
    const oldWords = searchWords(name).slice(0, 8);
    const formerKey = (w: string) => formerSortKey(String(template.sk).replace(/^[^#]*#/, `${w}#`));
    const legacy = [
      ...current.filter((i) => !String(i.pk).startsWith('MDS#')).map(({ msv: _msv, ...item }) => item),
      ...oldWords.map((w) => ({ ...template, sk: formerKey(w), gsi1sk: formerKey(w), sw: oldWords })),
    ];
    expect(oldWords).toContain('c&d');
    await batchWrite(legacy.map((Item) => ({ PutRequest: { Item } })) as never);
    const search = async (text: string) =>
      ((await other.api.get(`/stakeholders?company_id=${other.companyId}&type=supplier&with_external_data=1&limit=50&search_name=${encodeURIComponent(text)}`)).body as PageBody).items.map((i) => i.name);
    expect(await search('Paskutinis')).toEqual([]);
    expect(await search('C & D')).toEqual([]);
    const result = await backfillMasterSearch();
    expect(result.rewritten).toBeGreaterThanOrEqual(1);
    for (const typed of ['Paskutinis', 'C & D', 'c&d', 'Kauno Pirmasis']) expect(await search(typed), typed).toEqual([name]);
    // The former rule's "c&d" item is gone, the record is unchanged and marked, and a second run has nothing to do.
    for (const w of oldWords) expect((await ddb().send(new GetCommand({ TableName: tableName(), Key: { pk: template.pk, sk: formerKey(w) } }))).Item, w).toBeUndefined();
    const stored = await ddb().send(new GetCommand({ TableName: tableName(), Key: { pk: current[0]!.pk, sk: current[0]!.sk } }));
    expect(stored.Item).toMatchObject({ name, code: 'L1', version: r.version, msv: MASTER_SEARCH_VERSION });
    expect(await backfillMasterSearch()).toEqual({ rewritten: 0, skipped: 0, removed: 0 });
  });

  it('finds a supplier stored under rule 3 (its name words alone) by the first digits of its code once the backfill has run', async () => {
    const other = await registeredUser(t.stack, 'mdrule3');
    const r = newStakeholderRecord({ ids: { newId: () => 'RULE30000001' }, clock: { now: () => new Date(Date.UTC(2024, 0, 1)) } }, other.companyId, 'supplier', { name: 'Rule Three Traders', code: '307700111', vat_id: 'LT307700111' }, {});
    const items = masterItems(r);
    // As rule 3 stored it: `msv` 3, search items of the name's words only
    const rule3 = items.flatMap((item) => {
      if (item.msv !== undefined) return [{ ...item, msv: 3 }];
      if (!String(item.pk).startsWith('MDS#')) return [item];
      const sw = ['rule', 'three', 'traders'];
      return sw.some((w) => String(item.sk).startsWith(`${w}#`)) ? [{ ...item, sw }] : [];
    });
    await batchWrite(rule3.map((Item) => ({ PutRequest: { Item } })) as never);
    const search = async (text: string) =>
      ((await other.api.get(`/stakeholders?company_id=${other.companyId}&type=supplier&with_external_data=1&limit=50&search_name=${encodeURIComponent(text)}`)).body as PageBody).items.map((i) => i.name);
    expect(await search('30770')).toEqual([]);
    expect(await search('307700111')).toEqual(['Rule Three Traders']);
    expect((await backfillMasterSearch()).rewritten).toBeGreaterThanOrEqual(1);
    for (const typed of ['30770', 'LT3077', 'three 3077']) expect(await search(typed), typed).toEqual(['Rule Three Traders']);
    expect(await backfillMasterSearch()).toEqual({ rewritten: 0, skipped: 0, removed: 0 });
  });

  it('lists a name before the longer names it starts once the backfill has rewritten the former sort keys; a write made before it leaves no former item', async () => {
    const other = await registeredUser(t.stack, 'mdsortkey');
    const cq = `?company_id=${other.companyId}`;
    const ids = ['SORT00000001', 'SORT00000002', 'SORT00000003'];
    const records = ['Office supplies', 'Office', 'Office rent'].map((name, i) =>
      newCategoryRecord({ ids: { newId: () => ids[i]! }, clock: { now: () => new Date(Date.UTC(2024, 0, 1)) } }, other.companyId, { name }),
    );
    // As the store wrote them before MASTER_SEARCH_VERSION 3: `msv` 2, list and search keys `<name>#<id>`.
    const stored = records.flatMap((r) =>
      masterItems(r).map((item) => {
        if (item.msv !== undefined) return { ...item, msv: 2, gsi1sk: formerSortKey(String(item.gsi1sk)), gsi2sk: formerSortKey(String(item.gsi2sk)) };
        if (String(item.pk).startsWith('MDS#')) return { ...item, sk: formerSortKey(String(item.sk)), gsi1sk: formerSortKey(String(item.gsi1sk)) };
        return item;
      }),
    );
    await batchWrite(stored.map((Item) => ({ PutRequest: { Item } })) as never);
    const list = async () => ((await other.api.get(`/categories${cq}&limit=50`)).body as PageBody).items.map((i) => i.name);
    const search = async (text: string) => ((await other.api.get(`/categories${cq}&limit=50&search_name=${encodeURIComponent(text)}`)).body as PageBody).items.map((i) => i.name);
    // The former key sorts "office supplies#…" before "office#…" (a space is below "#").
    expect(await list()).toEqual(['Office rent', 'Office supplies', 'Office']);
    // A rename made before the backfill runs: its write puts the current keys, and its former search items stay.
    const renamed = await other.api.put(`/category${cq}`, { id: ids[0], name: 'Office supplies and paper' });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    expect(await search('supplies')).toEqual(['Office supplies and paper', 'Office supplies']);

    const result = await backfillMasterSearch();
    expect(result.rewritten).toBeGreaterThanOrEqual(2);
    expect(result.removed).toBeGreaterThanOrEqual(2);
    expect(await list()).toEqual(['Office', 'Office rent', 'Office supplies and paper']);
    expect(await search('office')).toEqual(['Office', 'Office rent', 'Office supplies and paper']);
    expect(await search('supplies')).toEqual(['Office supplies and paper']);
    const partition = await ddb().send(
      new QueryCommand({ TableName: tableName(), KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': `MDS#${other.companyId}#category#all` } }),
    );
    expect(partition.Items!.map((i) => String(i.sk)).filter((sk) => !sk.includes(MASTER_SORT_NAME_END))).toEqual([]);
    expect(await backfillMasterSearch()).toEqual({ rewritten: 0, skipped: 0, removed: 0 });
  });

  it("finds a supplier by its code or VAT ID in a large register, and never another company's", async () => {
    expect((await api.post(`/stakeholder${q.replace('&type=supplier&with_external_data=1', '')}`, { type: 'supplier', name: 'Northwind Office Supplies Ltd', code: '304567891', vat_id: 'LT123456715' })).status).toBe(201);
    const stranger = await registeredUser(t.stack, 'mdcodeother');
    const theirs = await stranger.api.post(`/stakeholder?company_id=${stranger.companyId}`, { type: 'supplier', name: 'Their Secret Supplier', code: '999888777', vat_id: 'LT999888777' });
    expect(theirs.status).toBe(201);
    for (const typed of ['304567891', '304 567 891', 'LT123456715', 'lt 123456715', '123456715']) expect((await first(typed, 8)).items.map((r) => r.name), typed).toEqual(['Northwind Office Supplies Ltd']);
    // A VAT ID kept without its country letters is found typed with them, as a document printing it is matched
    expect((await api.post(`/stakeholder${q.replace('&type=supplier&with_external_data=1', '')}`, { type: 'supplier', name: 'Bare VAT Traders', code: '305000111', vat_id: '100200300' })).status).toBe(201);
    for (const typed of ['100200300', 'LT100200300']) expect((await first(typed, 8)).items.map((r) => r.name), typed).toEqual(['Bare VAT Traders']);
    // The first characters of a code or a VAT ID, of a foreign VAT ID its digits alone, a code typed as written
    expect((await api.post(`/stakeholder${q.replace('&type=supplier&with_external_data=1', '')}`, { type: 'supplier', name: 'Nordic Cloud Services AB', code: 'SUP-102', vat_id: 'SE556677889901' })).status).toBe(201);
    for (const [typed, name] of [
      ['30456', 'Northwind Office Supplies Ltd'],
      ['LT1234', 'Northwind Office Supplies Ltd'],
      ['1234567', 'Northwind Office Supplies Ltd'],
      ['5566778', 'Nordic Cloud Services AB'],
      ['SE5566', 'Nordic Cloud Services AB'],
      ['sup10', 'Nordic Cloud Services AB'],
      ['SUP-10', 'Nordic Cloud Services AB'],
      ['nordic 5566', 'Nordic Cloud Services AB'],
    ]) {
      expect((await first(typed, 8)).items.map((r) => r.name), typed).toEqual([name]);
    }
    expect((await first('99988', 8)).items, "another company's code").toEqual([]);
    // Another company's code and VAT ID find nothing here; in their own company they do
    for (const typed of ['999888777', 'LT999888777']) {
      expect((await first(typed, 8)).items, typed).toEqual([]);
      const own = await stranger.api.get(`/stakeholders?company_id=${stranger.companyId}&type=supplier&with_external_data=1&limit=8&search_name=${typed}`);
      expect((own.body as PageBody).items.map((r) => r.name), typed).toEqual(['Their Secret Supplier']);
    }
  });

  it('pages a search of two common words to its end: each match once, the same matches as the rule says', async () => {
    const seen: string[] = [];
    let next: string | null = null;
    let pages = 0;
    do {
      const res = await api.get(`/stakeholders${q}&limit=50&search_name=${encodeURIComponent('prekyba uab')}${next ? `&next=${encodeURIComponent(next)}` : ''}`);
      expect(res.status).toBe(200);
      const body = res.body as PageBody;
      seen.push(...body.items.map((r) => r.name));
      next = body.next;
      pages += 1;
    } while (next && pages < 100);
    expect(next).toBeNull();
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toHaveLength(Math.ceil(FILLERS / 3));
    expect(seen.every((n) => n.endsWith(' Prekyba UAB'))).toBe(true);
  });
});
