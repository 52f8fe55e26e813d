/**
 * The all-companies view (selected=ALL) of a member of many companies, through the real handlers and the local
 * stand-ins: every list pages to its end as the web pages it (next and next_company sent back), newest first across
 * companies, without an error, a gap or a repeat; companies whose counts show nothing for the list are passed over
 * (a sparse list in one page, an empty one without a next); the counts of the view in one batch.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ddb } from '../../lambdas/adapters/ddb/client';
import { documentItemsWithIndex } from '../../lambdas/adapters/ddb/documents-store';
import { keys } from '../../lambdas/adapters/ddb/keys';
import { batchWrite } from '../../lambdas/adapters/ddb/table-ops';
import { newCompanyRecord } from '../../lambdas/core/accounts/companies';
import type { DocumentRecord, ReceiptStatus, ReceiptType } from '../../lambdas/core/documents/types';
import { seededDocument } from '../support/document-records';
import { registeredUser, startTestStack, type TestStack } from '../support/local-stack';

type Api = Awaited<ReturnType<typeof registeredUser>>['api'];
type Summary = { receipt_id: string; company_id: string | null; status: string; receipt_type: string };
type Page = { items: Summary[]; next: string | null; next_company: string | null };

const COMPANIES = 12;

describe('all-companies list of a member of many companies', () => {
  let t: TestStack;
  let api: Api;
  let userId: string;
  let companies: string[];
  const docs: DocumentRecord[] = [];
  const calls: string[] = [];
  let counting = false;

  beforeAll(async () => {
    t = await startTestStack();
    const u = await registeredUser(t.stack, 'allcos');
    api = u.api;
    userId = JSON.parse(Buffer.from(u.token.split('.')[1]!, 'base64url').toString()).sub as string;
    companies = [u.companyId];
    // The other companies and the caller's memberships, written as the product writes them (creating this many
    // through the API would meet its rate limit).
    const me = { id: userId, name: 'All', surname: 'Companies', email: u.user.email };
    const memberOf: Record<string, unknown>[] = [];
    for (let i = 1; i < COMPANIES; i++) {
      const rec = newCompanyRecord({ name: `Client ${i} UAB`, code: String(300000 + i) }, me, { newId: () => `01KALLCOS${String(i).padStart(17, '0')}` }, { now: () => new Date(Date.UTC(2025, 0, 1, i)) });
      companies.push(rec.company_id);
      memberOf.push({ ...keys.company(rec.company_id), ...keys.companiesIndex(rec.created_at, rec.company_id), type: 'COMPANY', ...rec });
      memberOf.push({
        ...keys.membership(userId, rec.company_id),
        ...keys.memberOfCompanyIndex(rec.company_id, userId),
        type: 'MEMBERSHIP',
        user_id: userId,
        company_id: rec.company_id,
        role: i % 2 ? 'basic' : 'admin',
        joined_at: rec.created_at,
      });
    }
    await batchWrite(memberOf.map((Item) => ({ PutRequest: { Item } })));
    // In company id order (the order of the view): rejected documents in every other company, 13 each (a status
    // page of 50 reads four companies: pages end at the start of a company); documents being saved in two
    // companies only; review in all; nothing failed anywhere.
    const sorted = [...companies].sort();
    let n = 0;
    const add = (scope: DocumentRecord['scope'], status: ReceiptStatus, receipt_type: ReceiptType) => {
      n += 1;
      docs.push(
        seededDocument({
          receipt_id: `ALLCOS${String(n).padStart(8, '0')}`,
          scope,
          created_at: new Date(Date.UTC(2025, 2, 1) + n * 3600_000).toISOString(),
          status,
          receipt_type,
          original_file_name: `scan-${n}.pdf`,
          counterparty_name: n % 5 === 0 ? 'Maxima LT' : 'Other Trader UAB',
          user_id: userId,
        }),
      );
    };
    for (const [ci, c] of sorted.entries()) {
      for (let i = 0; i < 6; i++) add(`C#${c}`, 'review', i % 2 ? 'invoice' : 'receipt');
      if (ci % 2 === 0) for (let i = 0; i < 13; i++) add(`C#${c}`, 'rejected', i % 3 ? 'receipt' : 'invoice');
      if (ci === 7 || ci === 10) for (let i = 0; i < 2; i++) add(`C#${c}`, 'saving', i ? 'invoice' : 'receipt');
    }
    add(`U#${userId}`, 'processing', 'receipt');
    add(`U#${userId}`, 'unassigned', 'invoice');
    // The counts items, as the product keeps them beside the documents.
    const counts = new Map<string, Record<string, number>>();
    for (const d of docs) {
      const key = `${d.scope}|${d.receipt_type}`;
      const c = counts.get(key) ?? {};
      c[d.status] = (c[d.status] ?? 0) + 1;
      counts.set(key, c);
    }
    const items: Record<string, unknown>[] = [...counts].map(([key, c]) => {
      const [scope, type] = key.split('|') as [string, ReceiptType];
      return { ...(scope.startsWith('C#') ? keys.companyCounts(scope.slice(2), type) : keys.userDocumentCounts(scope.slice(2), type)), ...c };
    });
    items.push(...docs.flatMap((d) => documentItemsWithIndex(d)));
    for (let i = 0; i < items.length; i += 25) await batchWrite(items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } })));
    ddb().middlewareStack.add(
      (next, context) => async (args) => {
        if (counting) calls.push((context.commandName ?? '?').replace('Command', ''));
        return next(args);
      },
      { step: 'initialize', name: 'allCompaniesListCounter' },
    );
  });

  afterAll(async () => {
    await t?.stop();
  });

  /** Pages as the web does: next and next_company of each page sent back until both are null. */
  async function pageAsWeb(query: string) {
    const pages: Page[] = [];
    let cursor = '';
    do {
      const res = await api.get(`/receipts?selected=ALL${query ? `&${query}` : ''}${cursor}`);
      expect(res.status, `${query} page ${pages.length + 1}: ${JSON.stringify(res.body)}`).toBe(200);
      const page = res.body as Page;
      pages.push(page);
      cursor = `${page.next ? `&next=${encodeURIComponent(page.next)}` : ''}${page.next_company ? `&next_company=${page.next_company}` : ''}`;
      expect(pages.length).toBeLessThan(60);
    } while (cursor);
    return { pages, ids: pages.flatMap((p) => p.items.map((d) => d.receipt_id)) };
  }

  /** Newest first across every company and the caller's own scope. */
  const idsWhere = (keep: (d: DocumentRecord) => boolean) =>
    docs
      .filter(keep)
      .sort((a, b) => (`${a.created_at}#${a.receipt_id}` < `${b.created_at}#${b.receipt_id}` ? 1 : -1))
      .map((d) => d.receipt_id);

  it('pages every list to its end, newest first across companies', async () => {
    const lists: [string, (d: DocumentRecord) => boolean][] = [
      ['', (d) => d.status !== 'unassigned'],
      ['receipt_status=rejected', (d) => d.status === 'rejected'],
      ['receipt_status=rejected&receipt_type=invoice', (d) => d.status === 'rejected' && d.receipt_type === 'invoice'],
      ['receipt_status=review', (d) => d.status === 'review'],
      ['receipt_status=review&limit=12', (d) => d.status === 'review'],
      ['receipt_type=invoice&limit=7', (d) => d.receipt_type === 'invoice' && d.status !== 'unassigned'],
      ['receipt_status=rejected&created_at_after=2025-03-02&created_at_before=2025-03-20', (d) => d.status === 'rejected' && d.created_at >= '2025-03-02' && d.created_at < '2025-03-21'],
      ['receipt_status=rejected&search_value=maxima', (d) => d.status === 'rejected' && d.counterparty_name === 'Maxima LT'],
      ['receipt_status=processing', (d) => d.status === 'processing'],
    ];
    for (const [query, keep] of lists) {
      const { ids, pages } = await pageAsWeb(query);
      expect(new Set(ids).size, query).toBe(ids.length);
      expect(ids, query).toEqual(idsWhere(keep));
      // one cursor for every company: next, never next_company
      expect(pages.every((p) => p.next_company === null), query).toBe(true);
      // no "load more" that brings nothing
      expect(pages.slice(0, -1).every((p) => p.items.length > 0), query).toBe(true);
    }
  });

  it('lists a status of few companies in one page, and answers an empty list without a next', async () => {
    const saving = await pageAsWeb('receipt_status=saving');
    expect(saving.pages).toHaveLength(1);
    expect(saving.ids).toEqual(idsWhere((d) => d.status === 'saving'));
    const failed = await pageAsWeb('receipt_status=failed');
    expect(failed.pages).toEqual([{ items: [], next: null, next_company: null }]);
  });

  it('refuses a cursor no page gives with a 400', async () => {
    for (const bad of ['garbage', Buffer.from('{}').toString('base64url'), Buffer.from(JSON.stringify({ c: 'nobody' })).toString('base64url'), Buffer.from(JSON.stringify({ s: 'x' })).toString('base64url')]) {
      const res = await api.get(`/receipts?selected=ALL&receipt_status=rejected&next=${bad}`);
      expect(res.status, bad).toBe(400);
      expect((res.body as { message: string }).message).toBe('Invalid next cursor');
    }
  });

  it('counts the view from one batch of counts items, as the documents are', async () => {
    calls.length = 0;
    counting = true;
    const res = await api.get('/receipts/total-documents?selected=ALL');
    counting = false;
    expect(res.status).toBe(200);
    const body = res.body as Record<ReceiptType, Record<string, number>>;
    for (const type of ['receipt', 'invoice'] as const) {
      for (const [status, n] of Object.entries(body[type])) expect(n, `${type} ${status}`).toBe(docs.filter((d) => d.receipt_type === type && d.status === status).length);
    }
    // the caller's memberships, then the counts of 13 scopes (26 keys) in one BatchGetItem
    expect(calls.filter((c) => c === 'GetItem')).toEqual([]);
    expect(calls.filter((c) => c === 'BatchGetItem')).toHaveLength(1);
  });
});
