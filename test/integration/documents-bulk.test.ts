/**
 * POST /receipts/bulk over many documents of one company, through the real handler against the local stand-ins,
 * with the DynamoDB stand-in cancelling overlapping transactions as DynamoDB does: every document gets its own
 * answer in the order of the ids (refused ones too), its own history record and one live event, and the status
 * counts equal a recount of the documents after each action although the documents are worked on side by side.
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ddb } from '../../lambdas/adapters/ddb/client';
import { documentItemsWithIndex } from '../../lambdas/adapters/ddb/documents-store';
import { keys } from '../../lambdas/adapters/ddb/keys';
import { batchWrite, tableName } from '../../lambdas/adapters/ddb/table-ops';
import type { DocumentRecord, ReceiptStatus, ReceiptType } from '../../lambdas/core/documents/types';
import { seededDocument } from '../support/document-records';
import { openLiveChannel, registeredUser, startTestStack, subOf, wholeTable, type TestStack } from '../support/local-stack';

type Result = { receipt_id: string; ok: boolean; status: number; message?: string; receipt?: { receipt_id: string; flag: boolean; status: string; version: number } };
type Counts = Record<ReceiptType, Record<string, number>>;

const N = 60;
const idOf = (i: number) => `BULKIT${String(i).padStart(20, '0')}`;
/** Every 10th document is still processing (busy: refused by every action), every 7th archived (read-only). */
const statusOf = (i: number): ReceiptStatus => (i % 10 === 9 ? 'processing' : i % 7 === 3 ? 'archive' : i % 2 ? 'ready' : 'review');
const typeOf = (i: number): ReceiptType => (i % 3 === 0 ? 'invoice' : 'receipt');

async function seed(companyId: string, userId: string, ids: string[], status: (i: number) => ReceiptStatus) {
  const docs: DocumentRecord[] = ids.map((id, i) =>
    seededDocument({
      receipt_id: id,
      scope: `C#${companyId}`,
      created_at: new Date(Date.UTC(2025, 0, 1) + i * 86400_000).toISOString(),
      user_id: userId,
      receipt_type: typeOf(i),
      status: status(i),
      original_file_name: `scan-${i}.pdf`,
      counterparty_name: `Supplier ${i % 5}`,
      document_number: `INV-${i}`,
      total: `${i}.25`,
      version: 2,
    }),
  );
  const counts: Counts = { receipt: {}, invoice: {} };
  for (const d of docs) counts[d.receipt_type][d.status] = (counts[d.receipt_type][d.status] ?? 0) + 1;
  await batchWrite(docs.flatMap((d) => documentItemsWithIndex(d)).map((Item) => ({ PutRequest: { Item } })));
  for (const type of ['receipt', 'invoice'] as const) {
    await ddb().send(new PutCommand({ TableName: tableName(), Item: { ...keys.companyCounts(companyId, type), ...counts[type] } }));
  }
}

/** The company's documents counted by type and status, from the table itself (a test-only Scan). */
async function recount(companyId: string): Promise<Counts> {
  const out: Counts = { receipt: {}, invoice: {} };
  for (const item of await wholeTable()) {
    // the document items (DOC#<id>, META), not their search-index copies
    if (item.sk !== 'META' || !String(item.pk).startsWith('DOC#') || item.company_id !== companyId) continue;
    const type = item.receipt_type as ReceiptType;
    out[type][item.status as string] = (out[type][item.status as string] ?? 0) + 1;
  }
  return out;
}

const nonZero = (counts: Counts) => ({
  receipt: Object.fromEntries(Object.entries(counts.receipt).filter(([, n]) => n !== 0)),
  invoice: Object.fromEntries(Object.entries(counts.invoice).filter(([, n]) => n !== 0)),
});

describe('bulk actions over many documents', () => {
  let t: TestStack;
  beforeAll(async () => {
    t = await startTestStack();
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('answers each document in order, with its history record, live event and counts, while transactions overlap', async () => {
    const { api, token, companyId } = await registeredUser(t.stack, 'bulk');
    const other = await registeredUser(t.stack, 'bulkother');
    const userId = subOf(token);
    const ids = Array.from({ length: N }, (_, i) => idOf(i));
    await seed(companyId, userId, ids, statusOf);
    await seed(other.companyId, subOf(other.token), ['FOREIGN0000000000000000001'], () => 'review');
    const q = `company_id=${companyId}`;
    const counts = async () => nonZero((await api.get(`/receipts/total-documents?${q}`)).body as Counts);
    expect(await counts()).toEqual(nonZero(await recount(companyId)));
    const live = await openLiveChannel(t.stack.wsUrl, token, companyId);
    const eventsOf = (event: string) => live.messages.filter((m) => m.event === event).map((m) => (m.payload as { receipt_id: string }).receipt_id);
    const historyOf = async (id: string) => ((await api.get(`/receipts/${id}/history?${q}`)).body as { items: { name: string }[] }).items.map((h) => h.name);
    t.stack.dynamo.conflicts.simulation.overlap = true;
    let flaggedIds: string[] = [];
    try {
      // Flag: 60 documents, another company's and a missing one; two calls at a time, as the web app sends them
      const asked = [...ids.slice(0, 30), 'FOREIGN0000000000000000001', 'NOPE', ...ids.slice(30)];
      const [first, second] = await Promise.all([
        api.post(`/receipts/bulk?${q}`, { action: 'flag', flag: true, receipt_ids: asked.slice(0, 31) }),
        api.post(`/receipts/bulk?${q}`, { action: 'flag', flag: true, receipt_ids: asked.slice(31) }),
      ]);
      expect([first.status, second.status]).toEqual([200, 200]);
      const flagged = [...(first.body as { results: Result[] }).results, ...(second.body as { results: Result[] }).results];
      expect(flagged.map((r) => r.receipt_id)).toEqual(asked);
      for (const r of flagged) {
        const i = ids.indexOf(r.receipt_id);
        if (i < 0) expect(r).toEqual({ receipt_id: r.receipt_id, ok: false, status: 404, message: 'Document not found' });
        else if (statusOf(i) === 'processing') expect(r).toMatchObject({ ok: false, status: 409 });
        else if (statusOf(i) === 'archive') expect(r).toEqual({ receipt_id: r.receipt_id, ok: false, status: 409, message: 'Archived documents are read-only' });
        else expect(r).toMatchObject({ ok: true, status: 200, receipt: { receipt_id: r.receipt_id, flag: true, version: 3 } });
      }
      flaggedIds = flagged.filter((r) => r.ok).map((r) => r.receipt_id);
      expect(flaggedIds).toHaveLength(ids.filter((_, i) => statusOf(i) !== 'processing' && statusOf(i) !== 'archive').length);
      expect(await historyOf(flaggedIds[0]!)).toEqual(['Flagged']);
      expect(await historyOf(flaggedIds.at(-1)!)).toEqual(['Flagged']);
      expect(await historyOf(idOf(3))).toEqual([]);

      // Marked ready (the edit screen's rules): none has content a confirm would take (422); busy, archived and
      // ready documents answer the status machine's 409 first; nothing changes
      const ready = (await api.post(`/receipts/bulk?${q}`, { action: 'status', status: 'ready', receipt_ids: ids.slice(0, 20) })).body as { results: Result[] };
      expect(ready.results.map((r) => [r.receipt_id, r.ok, r.status])).toEqual(
        ids.slice(0, 20).map((id, i) => [id, false, statusOf(i) === 'review' ? 422 : 409]),
      );
      expect(await counts()).toEqual(nonZero(await recount(companyId)));

      // Approve: every document not busy and not archived already moves to archive, the counts with it
      const archived = (await api.post(`/receipts/bulk?${q}`, { action: 'status', status: 'archive', receipt_ids: ids })).body as { results: Result[] };
      expect(archived.results.map((r) => r.receipt_id)).toEqual(ids);
      const archivedIds = archived.results.filter((r) => r.ok).map((r) => r.receipt_id);
      expect(archivedIds).toEqual(flaggedIds);
      expect(archived.results.every((r) => !r.ok || r.receipt?.status === 'archive')).toBe(true);
      expect(await historyOf(archivedIds[5]!)).toEqual(expect.arrayContaining(['Flagged', 'Moved to archive']));
      expect(await counts()).toEqual(nonZero(await recount(companyId)));
      expect((await counts()).receipt.archive).toBe(ids.filter((_, i) => typeOf(i) === 'receipt' && statusOf(i) !== 'processing').length);

      // Delete: busy documents stay, the others go with their counts
      const deleted = (await api.post(`/receipts/bulk?${q}`, { action: 'delete', receipt_ids: ids })).body as { results: Result[] };
      expect(deleted.results.map((r) => [r.receipt_id, r.ok])).toEqual(ids.map((id, i) => [id, statusOf(i) !== 'processing']));
      expect(await counts()).toEqual(nonZero(await recount(companyId)));
      expect(await counts()).toEqual({ receipt: { processing: 4 }, invoice: { processing: 2 } });
    } finally {
      t.stack.dynamo.conflicts.simulation.overlap = false;
    }
    // one live event per changed document and action
    await live.waitFor('receipt-delete');
    const deletedIds = ids.filter((_, i) => statusOf(i) !== 'processing');
    for (let n = 0; n < 50 && eventsOf('receipt-delete').length < deletedIds.length; n++) await new Promise((r) => setTimeout(r, 20));
    expect(eventsOf('receipt-delete').sort()).toEqual([...deletedIds].sort());
    // flagged, then archived: two updates of each of those documents, none of the refused ones
    const updates = eventsOf('receipt-update');
    expect(updates.sort()).toEqual([...flaggedIds, ...flaggedIds].sort());
    live.close();
    // the other company's document was not touched
    const foreign = (await wholeTable()).find((i) => i.type === 'DOCUMENT' && i.receipt_id === 'FOREIGN0000000000000000001');
    expect(foreign).toMatchObject({ flag: false, version: 2 });
  });
});
