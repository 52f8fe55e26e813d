import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContentResponse } from '../../shared/schemas/content';
import { registeredUser, startTestStack, type TestStack } from '../support/local-stack';
import { invoicePdf, SAMPLE_INVOICE, uploadDocument } from './content-fixtures';
import { findContentItem } from '../support/content-items';

type Api = Awaited<ReturnType<typeof registeredUser>>['api'];

const valueOf = (res: ContentResponse, id: string) => findContentItem(res.content, id)?.content?.value;

/**
 * A save whose answer was lost on the way (a train, a hotel Wi-Fi) is sent again by the edit screen on the version
 * it had: the document already holds exactly those values, so the replay is answered as saved, written once.
 */
describe('PUT content replayed after a lost answer, against the local stack', () => {
  let t: TestStack;
  let api: Api;
  let companyId: string;
  let receiptId: string;
  const q = () => `company_id=${companyId}`;
  const content = async () => (await api.get(`/receipts/${receiptId}/content?${q()}`)).body as ContentResponse;
  const history = async () => ((await api.get(`/receipts/${receiptId}/history?${q()}`)).body as { items: { name: string }[] }).items.map((h) => h.name);
  const put = (version: number, items: { id: string; value: string }[]) => api.put(`/receipts/${receiptId}/content?${q()}`, { version, items });

  beforeAll(async () => {
    t = await startTestStack();
    const u = await registeredUser(t.stack, 'replay');
    api = u.api;
    companyId = u.companyId;
    receiptId = await uploadDocument(t.stack, api, companyId, await invoicePdf({ ...SAMPLE_INVOICE, number: 'RP-1' }), 'replay.pdf');
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('the same save again on the version it was made on answers 200 with the document as it is, and writes nothing', async () => {
    const before = await content();
    const items = [
      { id: 'document_id', value: 'RP-1-SAVED' },
      { id: 'amount_tax', value: '1.23' },
    ];
    const first = await put(before.version, items);
    expect(first.status).toBe(200);
    const saved = await content();
    expect(saved.version).toBe(before.version + 1);
    const edits = (await history()).length;

    // the replay (its first answer was lost): the values are there, so it is answered as saved
    const replay = await put(before.version, items);
    expect(replay.status).toBe(200);
    expect((replay.body as ContentResponse).version).toBe(saved.version);
    expect(valueOf(replay.body as ContentResponse, 'document_id')).toBe('RP-1-SAVED');
    const after = await content();
    expect(after.version).toBe(saved.version);
    expect(await history()).toHaveLength(edits);
  });

  it('a save on an older version that would change anything is still refused (409): a value typed on, or one of several', async () => {
    const c = await content();
    const first = await put(c.version, [{ id: 'document_id', value: 'RP-1-B' }]);
    expect(first.status).toBe(200);
    // typed on meanwhile: the retry carries the longer value
    const typedOn = await put(c.version, [{ id: 'document_id', value: 'RP-1-BC' }]);
    expect(typedOn.status).toBe(409);
    expect(typedOn.body).toMatchObject({ statusCode: 409, error: 'Conflict', details: { version: c.version + 1 } });
    // one value held, another not
    const mixed = await put(c.version, [
      { id: 'document_id', value: 'RP-1-B' },
      { id: 'currency', value: 'USD' },
    ]);
    expect(mixed.status).toBe(409);
    const after = await content();
    expect(after.version).toBe(c.version + 1);
    expect(valueOf(after, 'document_id')).toBe('RP-1-B');
    expect(valueOf(after, 'currency')).not.toBe('USD');
  });
});
