/**
 * "Move items to archive after export" while a colleague edits: the export pop-up's bulk status change carries the
 * version of each document as the export read it, and a document changed since is refused on its own (409, the
 * per-document answer of POST /receipts/bulk) and stays where it was, with the colleague's change; the others move.
 * Through the real handlers against the local stand-ins.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContentResponse } from '../../shared/schemas/content';
import type { DetailsResponse } from '../../shared/schemas/receipts';
import { findContentItem } from '../support/content-items';
import { addMembership, registeredUser, startTestStack, subOf, type TestStack } from '../support/local-stack';
import { invoicePdf, uploadDocument } from './content-fixtures';

type Result = { receipt_id: string; ok: boolean; status: number; message?: string; receipt?: { status: string } };

describe('bulk status change with the versions a client read', () => {
  let t: TestStack;
  beforeAll(async () => {
    t = await startTestStack();
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('refuses a document a colleague changed since the export read it, and moves the others', async () => {
    const a = await registeredUser(t.stack, 'exporter');
    const b = await registeredUser(t.stack, 'colleague');
    await addMembership(subOf(b.token), a.companyId, 'basic');
    const q = `company_id=${a.companyId}`;
    const changed = await uploadDocument(t.stack, a.api, a.companyId, await invoicePdf(), 'changed.pdf');
    const same = await uploadDocument(t.stack, a.api, a.companyId, await invoicePdf(), 'same.pdf');

    // A's export reads the documents (as the pop-up does for CSV and PDF)
    const read = (await a.api.post(`/receipts/details?${q}`, { receipt_ids: [changed, same] })).body as DetailsResponse;
    const versions = Object.fromEntries(read.items.map((d) => [d.receipt_id, d.version]));
    expect(Object.keys(versions).sort()).toEqual([changed, same].sort());

    // B saves a change on one of them
    const saved = await b.api.put(`/receipts/${changed}/content?${q}`, { version: versions[changed], items: [{ id: 'amount_total', value: '999.99' }] });
    expect(saved.status).toBe(200);

    // A's "Move items to archive after export" with the versions the file holds
    const res = await a.api.post(`/receipts/bulk?${q}`, { action: 'status', status: 'archive', receipt_ids: [changed, same], versions });
    expect(res.status).toBe(200);
    const results = (res.body as { results: Result[] }).results;
    expect(results[0]).toMatchObject({ receipt_id: changed, ok: false, status: 409, message: 'The document was changed by someone else' });
    expect(results[1]).toMatchObject({ receipt_id: same, ok: true, status: 200, receipt: { status: 'archive' } });

    // The changed document stays where it was with B's value; nothing was archived that the file does not hold
    const doc = (await a.api.get(`/receipts/${changed}?${q}`)).body as { status: string };
    expect(doc.status).toBe(read.items.find((d) => d.receipt_id === changed)!.status);
    expect(doc.status).not.toBe('archive');
    const content = (await a.api.get(`/receipts/${changed}/content?${q}`)).body as ContentResponse;
    expect(findContentItem(content.content, 'amount_total')?.content?.value).toBe('999.99');
    expect(((await a.api.get(`/receipts/${same}?${q}`)).body as { status: string }).status).toBe('archive');

    // Without versions (the list's own Archive button) the change is made on the document as it stands
    const plain = (await a.api.post(`/receipts/bulk?${q}`, { action: 'status', status: 'archive', receipt_ids: [changed] })).body as { results: Result[] };
    expect(plain.results[0]).toMatchObject({ receipt_id: changed, ok: true, status: 200, receipt: { status: 'archive' } });
  });

  it('refuses versions that are not whole numbers with a clear 4xx', async () => {
    const a = await registeredUser(t.stack, 'badversions');
    const res = await a.api.post(`/receipts/bulk?company_id=${a.companyId}`, {
      action: 'status',
      status: 'archive',
      receipt_ids: ['NOPE00000000000000000000001'],
      versions: { NOPE00000000000000000000001: 'two' },
    });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ error: expect.any(String) });
  });
});
