import WebSocket from 'ws';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openLiveChannel, registeredUser, startTestStack, uploadDocument, type TestStack } from '../support/local-stack';

async function onePagePdf(text: string): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([595, 842]);
  page.drawText(text, { x: 50, y: 780, size: 14, font: await doc.embedFont(StandardFonts.Helvetica) });
  return doc.save();
}

describe('live events of documents without a company', () => {
  let t: TestStack;
  beforeAll(async () => {
    t = await startTestStack();
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('reach the owner on every open screen, and nobody else', async () => {
    // Prepare: the owner follows all their companies; another user is connected too
    const owner = await registeredUser(t.stack, 'loose');
    const other = await registeredUser(t.stack, 'bystander');
    const ownerLive = await openLiveChannel(t.stack.wsUrl, owner.token, 'ALL');
    const otherLive = await openLiveChannel(t.stack.wsUrl, other.token, 'ALL');

    // Act: an upload in the all-companies view (company_id NONE)
    const { put, upload } = await uploadDocument(
      owner.api,
      { company_id: 'NONE', original_file_name: 'loose.pdf', content_type: 'application/pdf' },
      await onePagePdf('LOOSE UAB Invoice No. L-1 Total 12.00'),
    );
    expect(put?.ok).toBe(true);
    await t.stack.jobs.idle();

    // Assess
    const added = await ownerLive.waitFor('receipt', 10_000);
    expect(added.payload).toMatchObject({ status: 'processing', original_file_name: 'loose.pdf' });
    const updated = await ownerLive.waitFor('receipt-update', 10_000);
    expect(updated.payload).toMatchObject({ status: 'unassigned' });
    expect(upload?.upload_id).toBeTruthy();
    expect(otherLive.messages.filter((m) => m.event.startsWith('receipt'))).toEqual([]);
    ownerLive.close();
    otherLive.close();
  });
});

describe('the local WebSocket gateway', () => {
  let t: TestStack;
  beforeAll(async () => {
    t = await startTestStack({ wsMaxConnectionMs: 400 });
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('closes a connection at its maximum duration, as API Gateway does, so the screen connects and subscribes again', async () => {
    const user = await registeredUser(t.stack, 'longlived');
    const ws = new WebSocket(`${t.stack.wsUrl}?token=${encodeURIComponent(user.token)}&company_id=ALL`);
    const opened = Date.now();
    const closed = await new Promise<{ code: number; afterMs: number }>((resolve, reject) => {
      ws.once('error', reject);
      ws.once('close', (code) => resolve({ code, afterMs: Date.now() - opened }));
    });
    expect(closed.code).toBe(1001);
    expect(closed.afterMs).toBeGreaterThanOrEqual(300);
    // A new connection is taken as before
    const again = await openLiveChannel(t.stack.wsUrl, user.token, 'ALL');
    again.close();
  });
});
