/**
 * Document search (search_value) from the search index, through the real handlers and the local
 * stand-ins: prefix search on supplier/customer, number and file name with the list's other filters
 * and paging; edits, type and status changes, combine and deletes keep the index right; another
 * company's documents never match; documents written before the index are found after the backfill.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { ddb } from '../../lambdas/adapters/ddb/client';
import { documentItem, documentItemsWithIndex, searchItems } from '../../lambdas/adapters/ddb/documents-store';
import { batchWrite, tableName } from '../../lambdas/adapters/ddb/table-ops';
import { backfillSearchIndex } from '../../lambdas/adapters/ddb/search-backfill';
import type { DocumentRecord } from '../../lambdas/core/documents/types';
import { apiClient, registeredUser, startTestStack, type TestStack } from '../support/local-stack';
import { seededDocument } from '../support/document-records';
import { invoicePdf, SAMPLE_INVOICE, uploadDocument } from './content-fixtures';

type Api = Awaited<ReturnType<typeof registeredUser>>['api'];
type Summary = { receipt_id: string; company_id: string | null; status: string; receipt_type: string; original_file_name: string; created_at: string; version: number };
type Page = { items: Summary[]; next: string | null; next_company: string | null };

function seedDoc(i: number, companyId: string, over: Partial<DocumentRecord> = {}): DocumentRecord {
  return seededDocument({
    receipt_id: `SRCH${companyId.slice(-6).toUpperCase().replace(/[^0-9A-Z]/g, 'X')}${String(i).padStart(6, '0')}`,
    scope: `C#${companyId}`,
    created_at: new Date(Date.UTC(2024, 4, 1) + i * 3600_000).toISOString(),
    receipt_type: i % 2 ? 'invoice' : 'receipt',
    status: (['review', 'ready'] as const)[i % 2]!,
    original_file_name: `bulk-${i}.pdf`,
    counterparty_name: i === 77 ? 'Vilniaus Vandenys, UAB' : 'Common Trader UAB',
    document_number: `CT-${i}`,
    issue_date: '2024-05-01',
    total: '1.00',
    ...over,
  });
}

async function pageAll(api: Api, query: string): Promise<{ items: Summary[]; pages: number }> {
  const items: Summary[] = [];
  let next: string | null = null;
  let pages = 0;
  do {
    const res = await api.get(`/receipts?${query}${next ? `&next=${encodeURIComponent(next)}` : ''}`);
    expect(res.status).toBe(200);
    const body = res.body as Page;
    items.push(...body.items);
    next = body.next;
    pages += 1;
  } while (next && pages < 50);
  return { items, pages };
}

describe('document search', () => {
  let t: TestStack;
  let api: Api;
  let companyId: string;
  let popierius: string;
  let arena: string;
  const q = () => `company_id=${companyId}`;
  const search = async (term: string, extra = '') => (await pageAll(api, `${q()}&search_value=${encodeURIComponent(term)}${extra}`)).items.map((d) => d.receipt_id);

  beforeAll(async () => {
    t = await startTestStack();
    const u = await registeredUser(t.stack, 'search');
    api = u.api;
    companyId = u.companyId;
    popierius = await uploadDocument(t.stack, api, companyId, await invoicePdf(), 'march-receipt.pdf');
    arena = await uploadDocument(t.stack, api, companyId, await invoicePdf({ ...SAMPLE_INVOICE, supplier: 'Zalgirio Arena UAB', supplierCode: '304444444', number: 'ZA-777' }), 'arena.pdf');
    // The supplier as the user corrects it (an edit writes the index too).
    await setSupplier(arena, 'Žalgirio Arena UAB');
  });

  async function setSupplier(receiptId: string, name: string, number?: string) {
    const content = (await api.get(`/receipts/${receiptId}/content?${q()}`)).body as { version: number };
    const items = [{ id: 'supplier_name', value: name }, ...(number ? [{ id: 'document_id', value: number }] : [])];
    const saved = await api.put(`/receipts/${receiptId}/content?${q()}`, { version: content.version, items });
    expect(saved.status).toBe(200);
  }
  const statusOf = async (receiptId: string) => ((await api.get(`/receipts/${receiptId}?${q()}`)).body as Summary).status;
  afterAll(async () => {
    await t?.stop();
  });

  it('finds documents by the start of any word of the supplier, the number or the file name', async () => {
    expect(await search('Popier')).toEqual([popierius]);
    expect(await search('pp-001')).toEqual([popierius]);
    expect(await search('PP-00123')).toEqual([popierius]);
    expect(await search('march')).toEqual([popierius]);
    expect(await search('zalgirio')).toEqual([arena]);
    expect(await search('Žalgirio arena')).toEqual([arena]);
    expect(await search('za-777')).toEqual([arena]);
    // Both have "UAB": newest first.
    expect(await search('uab')).toEqual([arena, popierius]);
    // Not the start of a word, or a word neither has.
    expect(await search('opierius')).toEqual([]);
    expect(await search('popierius rimi')).toEqual([]);
    // With the list's other filters.
    const status = await statusOf(popierius);
    const otherStatus = status === 'archive' ? 'review' : 'archive';
    expect(await search('popier', `&receipt_status=${status}`)).toEqual([popierius]);
    expect(await search('popier', `&receipt_status=${otherStatus}`)).toEqual([]);
    expect(await search('popier', '&receipt_type=invoice')).toEqual([]);
    expect(await search('popier', `&receipt_type=receipt&receipt_status=${status}`)).toEqual([popierius]);
    const today = new Date().toISOString().slice(0, 10);
    expect(await search('popier', `&created_at_after=${today}&created_at_before=${today}`)).toEqual([popierius]);
    expect(await search('popier', '&created_at_after=2020-01-01&created_at_before=2020-12-31')).toEqual([]);
    // All companies.
    const all = await pageAll(api, `selected=ALL&search_value=arena`);
    expect(all.items.map((d) => d.receipt_id)).toEqual([arena]);
  });

  it('follows edits, status and type changes, combine and deletes', async () => {
    await setSupplier(popierius, 'Rimi Lietuva', 'RL-55');
    expect(await search('popier')).toEqual([]);
    expect(await search('pp-00123')).toEqual([]);
    expect(await search('rimi')).toEqual([popierius]);
    expect(await search('rl-55')).toEqual([popierius]);
    expect(await search('march')).toEqual([popierius]);

    const before = await statusOf(popierius);
    expect((await api.post(`/receipt/${popierius}/status?${q()}`, { status: 'archive' })).status).toBe(200);
    expect(await search('march', `&receipt_status=${before}`)).toEqual([]);
    expect(await search('march', '&receipt_status=archive')).toEqual([popierius]);
    expect((await api.post(`/receipt/${popierius}/status?${q()}`, { status: 'review' })).status).toBe(200);
    expect(await search('march', '&receipt_status=review')).toEqual([popierius]);

    expect((await api.post(`/receipt/${popierius}/type?${q()}`, { receipt_type: 'invoice' })).status).toBe(200);
    expect(await search('march', '&receipt_type=receipt')).toEqual([]);
    expect(await search('march', '&receipt_type=invoice')).toEqual([popierius]);
    expect((await api.post(`/receipt/${popierius}/type?${q()}`, { receipt_type: 'receipt' })).status).toBe(200);

    // Combine: the absorbed document leaves the index; the combined one stays under its own words.
    const other = await uploadDocument(t.stack, api, companyId, await invoicePdf({ ...SAMPLE_INVOICE, supplier: 'Kesko Senukai', supplierCode: '305555555', number: 'KS-1' }), 'senukai.pdf');
    expect(await search('senukai')).toEqual([other]);
    expect((await api.post(`/receipts/${arena}/combine?${q()}`, { receipt_id: other })).status).toBe(200);
    expect(await search('senukai')).toEqual([]);
    expect(await search('zalgirio')).toEqual([arena]);

    expect((await api.delete(`/receipt/${arena}?${q()}`)).status).toBe(200);
    expect(await search('zalgirio')).toEqual([]);
    expect(await search('arena')).toEqual([]);
    expect(await search('uab')).toEqual([]);
  });

  it('finds a document by its file name however long the supplier name processing read', async () => {
    const supplier = 'Alpha Bravo Charlie Delta Echo Foxtrot Golf Hotel India UAB';
    const id = await uploadDocument(t.stack, api, companyId, await invoicePdf({ ...SAMPLE_INVOICE, supplier, supplierCode: '306666666', number: 'AB-9' }), 'scan-qx7hz2.pdf');
    const found = await pageAll(api, `${q()}&receipt_status=inbox&search_value=${encodeURIComponent('scan-qx7hz2.pdf')}`);
    expect(found.items.map((d) => [d.receipt_id, d.status])).toEqual([[id, await statusOf(id)]]);
    expect(found.items[0]!.status).not.toBe('processing');
    expect(await search('qx7hz2')).toEqual([id]);
    expect(await search('ab-9')).toEqual([id]);
    expect(await search('alpha india')).toEqual([id]);
    expect((await api.delete(`/receipt/${id}?${q()}`)).status).toBe(200);
  });

  it("never matches another company's documents and refuses strangers", async () => {
    const stranger = await registeredUser(t.stack, 'search-stranger');
    const theirs = await uploadDocument(t.stack, stranger.api, stranger.companyId, await invoicePdf(), 'theirs.pdf');
    const mine = await uploadDocument(t.stack, api, companyId, await invoicePdf(), 'april.pdf');
    expect(await search('popier')).toEqual([mine]);
    const theirsFound = await pageAll(stranger.api, `company_id=${stranger.companyId}&search_value=popier`);
    expect(theirsFound.items.map((d) => d.receipt_id)).toEqual([theirs]);
    const strangerAll = await pageAll(stranger.api, 'selected=ALL&search_value=popier');
    expect(strangerAll.items.map((d) => d.receipt_id)).toEqual([theirs]);
    // The stranger asking for my company: not a member.
    expect((await stranger.api.get(`/receipts?${q()}&search_value=popier`)).status).toBe(403);
    // Anonymous.
    expect((await apiClient(t.stack.apiUrl).get(`/receipts?${q()}&search_value=popier`)).status).toBe(401);
  });

  it('pages a common term 50 at a time without an empty last page, and ends a rare one at once', async () => {
    const { api: own, companyId: id } = await registeredUser(t.stack, 'search-pages');
    const docs = Array.from({ length: 130 }, (_, i) => seedDoc(i, id));
    await batchWrite(docs.flatMap((d) => documentItemsWithIndex(d).map((Item) => ({ PutRequest: { Item } }))));
    const common = await pageAll(own, `company_id=${id}&search_value=common`);
    const expected = docs.filter((d) => d.counterparty_name.startsWith('Common')).reverse().map((d) => d.receipt_id);
    expect(common.items.map((d) => d.receipt_id)).toEqual(expected);
    expect(common.pages).toBe(Math.ceil(expected.length / 50));
    const readyInvoices = await pageAll(own, `company_id=${id}&search_value=trader&receipt_type=invoice&receipt_status=ready`);
    expect(readyInvoices.items.map((d) => d.receipt_id)).toEqual(docs.filter((d) => d.receipt_type === 'invoice' && d.status === 'ready' && d.counterparty_name.startsWith('Common')).reverse().map((d) => d.receipt_id));
    const first = (await own.get(`/receipts?company_id=${id}&search_value=vandenys`)).body as Page;
    expect(first.items.map((d) => d.receipt_id)).toEqual([docs[77]!.receipt_id]);
    expect(first.next).toBeNull();
  });

  it('finds documents written before the index once the backfill has run', async () => {
    const { api: own, companyId: id } = await registeredUser(t.stack, 'search-legacy');
    const legacy = Array.from({ length: 3 }, (_, i) => seedDoc(i, id, { counterparty_name: 'Legacy Supplier' }));
    await batchWrite(legacy.map((d) => ({ PutRequest: { Item: documentItem(d) } })));
    expect((await pageAll(own, `company_id=${id}&search_value=legacy`)).items).toEqual([]);
    const result = await backfillSearchIndex();
    expect(result.indexed).toBeGreaterThanOrEqual(3);
    const found = await pageAll(own, `company_id=${id}&search_value=legacy`);
    expect(found.items.map((d) => d.receipt_id)).toEqual([...legacy].reverse().map((d) => d.receipt_id));
    // Nothing left to do the second time.
    expect(await backfillSearchIndex()).toEqual({ indexed: 0, skipped: 0, removed: 0 });
  });

  it('removes an old search item stored with the kind of a document', async () => {
    const { companyId: id } = await registeredUser(t.stack, 'search-kind');
    const doc = seedDoc(0, id, { counterparty_name: 'Kind Supplier' });
    // Written before stop 65: a record read back from the table kept `type: DOCUMENT` into its search items.
    const item = searchItems(doc)[0]!;
    const stale = { ...item, pk: `DOCQ#${doc.scope}#zz-old`, type: 'DOCUMENT', siv: 0 };
    await batchWrite([...documentItemsWithIndex(doc), stale].map((Item) => ({ PutRequest: { Item } })));
    const result = await backfillSearchIndex();
    expect(result.removed).toBeGreaterThanOrEqual(1);
    const left = await ddb().send(new GetCommand({ TableName: tableName(), Key: { pk: stale.pk, sk: item.sk } }));
    expect(left.Item).toBeUndefined();
    expect(await backfillSearchIndex()).toEqual({ indexed: 0, skipped: 0, removed: 0 });
  });
});
