/**
 * Documents never stay in processing: a job killed by its timeout (here: Textract never answers, and the
 * local queue gives up on the delivery as Lambda would) is delivered again, then dead-lettered, and the
 * dead-letter consumer ends the document failed; the sweeper fails documents left in processing too long.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeRecogniser } from '../../lambdas/jobs/lib/recogniser';
import { resetEnvCache } from '../../lambdas/runtime/env';
import { deps } from '../../lambdas/runtime/deps';
import { sweepStuckDocuments } from '../../lambdas/core/documents/stuck';
import { sweeperDeps } from '../../lambdas/jobs/sweep-processing';
import { STUCK_PROCESSING_AFTER_MS } from '../../shared/processing-limits';
import { countMove } from '../../lambdas/core/documents/status-machine';
import { emptyChange, userScope } from '../../lambdas/core/documents/types';
import { seededDocument } from '../support/document-records';
import { openLiveChannel, registeredUser, startTestStack, subOf, uploadDocument, type TestStack } from '../support/local-stack';

type Detail = { receipt_id: string; status: string; error: { message: string } | null; can_be_restarted: boolean };
const quiet = { info: () => undefined, warn: () => undefined };

/** A Textract endpoint that accepts every request and never answers. */
async function silentTextract(): Promise<{ url: string; requests: string[]; close(): Promise<void> }> {
  const requests: string[] = [];
  const server: Server = createServer((req) => {
    requests.push(String(req.headers['x-amz-target'] ?? ''));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function photo(): Promise<Uint8Array> {
  return new Uint8Array(await sharp({ create: { width: 600, height: 800, channels: 3, background: '#ffffff' } }).jpeg().toBuffer());
}

describe('documents whose job died', () => {
  let t: TestStack;
  let textract: Awaited<ReturnType<typeof silentTextract>>;
  const saved = { recogniser: process.env.RECOGNISER, endpoint: process.env.AWS_ENDPOINT_URL_TEXTRACT };

  beforeAll(async () => {
    t = await startTestStack({ processingTimeoutMs: 1500 });
    textract = await silentTextract();
    process.env.RECOGNISER = 'textract';
    process.env.AWS_ENDPOINT_URL_TEXTRACT = textract.url;
    resetEnvCache();
    await closeRecogniser();
  });
  afterAll(async () => {
    process.env.RECOGNISER = saved.recogniser ?? 'local';
    if (saved.endpoint === undefined) delete process.env.AWS_ENDPOINT_URL_TEXTRACT;
    else process.env.AWS_ENDPOINT_URL_TEXTRACT = saved.endpoint;
    resetEnvCache();
    await textract?.close();
    await closeRecogniser();
    await t?.stop();
  });

  it('a job killed by its timeout on every delivery ends failed through the dead-letter consumer', async () => {
    const { api, companyId } = await registeredUser(t.stack, 'killed');
    const { request, put } = await uploadDocument(api, { company_id: companyId, original_file_name: 'photo.jpg', content_type: 'image/jpeg' }, await photo());
    expect([request.status, put!.status]).toEqual([200, 200]);
    await t.stack.jobs.idle();

    // Every delivery reached Textract and was killed there; the message went to the dead-letter queue.
    expect(textract.requests.filter((r) => r.endsWith('AnalyzeExpense'))).toHaveLength(3);
    expect(t.stack.jobs.deadLetters).toHaveLength(1);
    const rows = ((await api.get(`/receipts?company_id=${companyId}`)).body as { items: Detail[] }).items;
    expect(rows).toHaveLength(1);
    const detail = (await api.get(`/receipts/${rows[0]!.receipt_id}?company_id=${companyId}`)).body as Detail;
    expect(detail).toMatchObject({ status: 'failed', can_be_restarted: true, error: { message: 'The document could not be processed. Try again.' } });
    const counts = (await api.get(`/receipts/total-documents?company_id=${companyId}`)).body as Record<'receipt', Record<string, number>>;
    expect(counts.receipt).toMatchObject({ processing: 0, failed: 1 });
  });

  it('the sweeper fails documents in processing for longer than the bound, and leaves recent ones', async () => {
    const { api, companyId } = await registeredUser(t.stack, 'stuck');
    // The job waits on Textract: the document is in processing meanwhile.
    const { request } = await uploadDocument(api, { company_id: companyId, original_file_name: 'stuck.jpg', content_type: 'image/jpeg' }, await photo());
    expect(request.status).toBe(200);
    let rows: Detail[] = [];
    for (let i = 0; i < 200 && rows.length === 0; i++) {
      rows = ((await api.get(`/receipts?company_id=${companyId}`)).body as { items: Detail[] }).items;
      if (rows.length === 0) await new Promise((r) => setTimeout(r, 50));
    }
    expect(rows.map((r) => r.status)).toEqual(['processing']);
    const id = rows[0]!.receipt_id;

    const sweep = (at: Date) => sweepStuckDocuments(sweeperDeps(deps(), quiet, { now: () => at }), STUCK_PROCESSING_AFTER_MS);
    // Now: nothing is old enough.
    expect(await sweep(new Date())).not.toContain(id);
    expect(((await api.get(`/receipts/${id}?company_id=${companyId}`)).body as Detail).status).toBe('processing');
    // Past the bound: failed and restartable.
    expect(await sweep(new Date(Date.now() + STUCK_PROCESSING_AFTER_MS + 60_000))).toContain(id);
    const detail = (await api.get(`/receipts/${id}?company_id=${companyId}`)).body as Detail;
    expect(detail).toMatchObject({ status: 'failed', can_be_restarted: true, error: { message: 'The document could not be processed. Try again.' } });
    await t.stack.jobs.idle();
  });

  it('the sweeper fails an unassigned document of the all-companies view in processing for longer than the bound, and tells its owner', async () => {
    const { api, token } = await registeredUser(t.stack, 'stuckloose');
    const live = await openLiveChannel(t.stack.wsUrl, token, 'ALL');
    // An unassigned document in processing in the uploader's own scope (its job died while its pages were rendered:
    // an upload without a company is not recognised, so it never waits on Textract).
    const stuck = seededDocument({ receipt_id: `STUCKLOOSE${Date.now()}`, scope: userScope(subOf(token)), created_at: new Date().toISOString(), status: 'processing', user_id: subOf(token) });
    await deps().documents.commit({ ...emptyChange(), puts: [stuck], counts: countMove(null, stuck) });
    const id = stuck.receipt_id;

    const sweep = (at: Date) => sweepStuckDocuments(sweeperDeps(deps(), quiet, { now: () => at }), STUCK_PROCESSING_AFTER_MS);
    expect(await sweep(new Date())).not.toContain(id);
    expect(((await api.get(`/receipts/${id}?company_id=NONE`)).body as Detail).status).toBe('processing');
    expect(await sweep(new Date(Date.now() + STUCK_PROCESSING_AFTER_MS + 60_000))).toContain(id);

    const detail = (await api.get(`/receipts/${id}?company_id=NONE`)).body as Detail;
    expect(detail).toMatchObject({ status: 'failed', can_be_restarted: true, error: { message: 'The document could not be processed. Try again.' } });
    const counts = (await api.get('/receipts/total-documents?selected=ALL')).body as Record<'receipt', Record<string, number>>;
    expect(counts.receipt).toMatchObject({ processing: 0, failed: 1 });
    let failedEvent: { event: string; payload: unknown } | undefined;
    for (let i = 0; i < 100 && !failedEvent; i++) {
      failedEvent = live.messages.find((m) => m.event === 'receipt-update' && (m.payload as Detail).receipt_id === id && (m.payload as Detail).status === 'failed');
      if (!failedEvent) await new Promise((r) => setTimeout(r, 50));
    }
    expect(failedEvent?.payload).toMatchObject({ receipt_id: id, status: 'failed', company_id: null });
    live.close();
    await t.stack.jobs.idle();
  });

  it('an unassigned upload is not sent to Textract; given a company it is read there, and the sweeper covers it while it waits', async () => {
    const { api, companyId } = await registeredUser(t.stack, 'looseread');
    const asked = textract.requests.length;
    const { request } = await uploadDocument(api, { company_id: 'NONE', original_file_name: 'loose.jpg', content_type: 'image/jpeg' }, await photo());
    expect(request.status).toBe(200);
    await t.stack.jobs.idle();
    const rows = ((await api.get('/receipts?company_id=NONE&receipt_status=unassigned')).body as { items: Detail[] }).items;
    expect(rows.map((r) => r.status)).toEqual(['unassigned']);
    expect(textract.requests.length).toBe(asked);

    // Given a company: read there, so it waits on Textract in processing; the sweeper fails it past the bound.
    const moved = await api.post(`/receipts/${rows[0]!.receipt_id}/company?company_id=NONE`, { company_id: companyId });
    expect(moved.status).toBe(200);
    const id = (moved.body as { receipt_id: string }).receipt_id;
    for (let i = 0; i < 200 && textract.requests.length === asked; i++) await new Promise((r) => setTimeout(r, 50));
    expect(textract.requests.length).toBeGreaterThan(asked);
    expect(((await api.get(`/receipts/${id}?company_id=${companyId}`)).body as Detail).status).toBe('processing');
    const sweep = (at: Date) => sweepStuckDocuments(sweeperDeps(deps(), quiet, { now: () => at }), STUCK_PROCESSING_AFTER_MS);
    expect(await sweep(new Date(Date.now() + STUCK_PROCESSING_AFTER_MS + 60_000))).toContain(id);
    expect(((await api.get(`/receipts/${id}?company_id=${companyId}`)).body as Detail).status).toBe('failed');
    await t.stack.jobs.idle();
  });
});
