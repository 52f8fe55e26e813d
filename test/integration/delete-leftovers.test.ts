/**
 * What a deleted document leaves, against the local stand-ins (DynamoDB, S3): DELETE /receipt/{id} removes the
 * document's files and writes nothing down when all goes; the table keeps the leftovers of a delete whose cleanup
 * failed (D17) in the one gsi1 partition the sweeper reads (D18), and the sweeper job removes them (or, for a
 * document given a company, moves its history to the new id).
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ddb } from '../../lambdas/adapters/ddb/client';
import { keys } from '../../lambdas/adapters/ddb/keys';
import { tableName } from '../../lambdas/adapters/ddb/table-ops';
import { documentKeys } from '../../lambdas/core/documents/files';
import { LEFTOVERS_GRACE_MS } from '../../lambdas/core/documents/leftovers';
import { emptyChange, type DocumentLeftovers } from '../../lambdas/core/documents/types';
import { ownedObjects } from '../../lambdas/core/documents/workflow';
import { handler as sweep } from '../../lambdas/jobs/sweep-processing';
import { deps } from '../../lambdas/runtime/deps';
import { registeredUser, startTestStack, type TestStack } from '../support/local-stack';
import { invoicePdf, uploadDocument } from './content-fixtures';

const leftoversItem = async (receiptId: string) => (await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.documentLeftovers(receiptId) }))).Item;

describe('the leftovers of deleted documents', () => {
  let t: TestStack;
  beforeAll(async () => {
    t = await startTestStack();
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('a delete through the API removes the files the document held and leaves no leftovers item', { timeout: 120_000 }, async () => {
    const u = await registeredUser(t.stack, 'deleter');
    const id = await uploadDocument(t.stack, u.api, u.companyId, await invoicePdf(), 'to-delete.pdf');
    const record = await deps().documents.get(id);
    const held = ownedObjects(record!);
    expect(held.length).toBeGreaterThan(1);
    for (const key of held) expect(await deps().files.head(key)).toBeDefined();
    const res = await u.api.delete(`/receipt/${id}?company_id=${u.companyId}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ deleted: true, receipt_id: id });
    for (const key of held) expect(await deps().files.head(key)).toBeUndefined();
    expect(await leftoversItem(id)).toBeUndefined();
  });

  it('leftovers written with a change are listed oldest first up to a time, and the sweeper job removes those past the grace', async () => {
    const now = Date.now();
    const at = (minutesAgo: number) => new Date(now - minutesAgo * 60_000).toISOString();
    const left = (id: string, minutesAgo: number): DocumentLeftovers => ({ receipt_id: id, deleted_at: at(minutesAgo), files: [`uploads/x/${id}`], prefixes: [documentKeys.prefix(id)] });
    const change = emptyChange();
    change.leftovers = [left('lo-old', 90), left('lo-older', 120), left('lo-recent', 1)];
    for (const l of change.leftovers) {
      await deps().files.put(`uploads/x/${l.receipt_id}`, new Uint8Array([1]), 'application/pdf');
      await deps().files.put(`${documentKeys.prefix(l.receipt_id)}page-1.jpg`, new Uint8Array([1]), 'image/jpeg');
    }
    await deps().documents.commit(change);
    expect(await leftoversItem('lo-old')).toMatchObject({ type: 'DOC_LEFTOVERS', gsi1pk: 'LEFTOVERS', receipt_id: 'lo-old' });
    expect((await deps().documents.pendingLeftovers(at(60), 10)).map((l) => l.receipt_id)).toEqual(['lo-older', 'lo-old']);
    expect(await deps().documents.pendingLeftovers(at(60), 1)).toEqual([left('lo-older', 120)]);
    // A sweep that failed puts them behind the others: due again after the time it names.
    await deps().documents.postponeLeftovers('lo-older', at(30));
    expect((await deps().documents.pendingLeftovers(at(60), 10)).map((l) => l.receipt_id)).toEqual(['lo-old']);
    expect(await deps().documents.pendingLeftovers(at(20), 10)).toEqual([left('lo-old', 90), { ...left('lo-older', 120), retry_at: at(30), attempts: 1 }]);
    // Leftovers already dropped are not brought back.
    await deps().documents.postponeLeftovers('lo-gone', at(30));
    expect(await leftoversItem('lo-gone')).toBeUndefined();

    const result = await sweep();
    expect(result.leftovers).toEqual({ cleared: 2, left: 0 });
    for (const id of ['lo-old', 'lo-older']) {
      expect(await leftoversItem(id)).toBeUndefined();
      expect(await deps().files.head(`uploads/x/${id}`)).toBeUndefined();
      expect(await deps().files.head(`${documentKeys.prefix(id)}page-1.jpg`)).toBeUndefined();
    }
    // A delete younger than the grace is the request's to finish: untouched.
    expect(LEFTOVERS_GRACE_MS).toBeGreaterThan(60_000);
    expect(await leftoversItem('lo-recent')).toBeDefined();
    expect(await deps().files.head('uploads/x/lo-recent')).toBeDefined();
  });

  it('the sweeper moves the history of a document given a company to its new id before removing it', async () => {
    const deletedAt = new Date(Date.now() - 90 * 60_000).toISOString();
    const change = emptyChange();
    change.history.push({ id: 'h-up', receipt_id: 'lo-unassigned', date: deletedAt, name: 'Uploaded', user_id: 'u', user: { name: 'T', surname: 'U' } });
    change.leftovers = [{ receipt_id: 'lo-unassigned', deleted_at: deletedAt, files: [], prefixes: [], history_to: 'lo-assigned' }];
    await deps().documents.commit(change);
    expect(await leftoversItem('lo-unassigned')).toMatchObject({ history_to: 'lo-assigned' });
    // A copy made before (the request's, whose delete then failed) is overwritten, not doubled.
    await deps().documents.copyHistory('lo-unassigned', 'lo-assigned');
    expect((await sweep()).leftovers).toEqual({ cleared: 1, left: 0 });
    expect(await deps().documents.history('lo-assigned')).toEqual([expect.objectContaining({ id: 'h-up', receipt_id: 'lo-assigned', name: 'Uploaded' })]);
    expect(await deps().documents.history('lo-unassigned')).toEqual([]);
    expect(await leftoversItem('lo-unassigned')).toBeUndefined();
  });
});
