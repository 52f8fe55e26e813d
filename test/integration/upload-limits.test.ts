/**
 * Uploads as a careless or hostile client uses them: reservations that are never used, a second PUT to the
 * same URL, another size than the declared one. Real handlers, real local S3 gateway and job queue.
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { textPdf } from '../support/text-pdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ddb } from '../../lambdas/adapters/ddb/client';
import { s3Files } from '../../lambdas/adapters/s3/files';
import { ObjectChanged, ObjectTooLarge } from '../../lambdas/core/documents/ports';
import { READ_MAX_BYTES } from '../../lambdas/core/documents/processing';
import { keys } from '../../lambdas/adapters/ddb/keys';
import { resetEnvCache } from '../../lambdas/runtime/env';
import { addMembership, registeredUser, setAvailableDocuments, startTestStack, subOf, uploadDocument, type TestStack } from '../support/local-stack';

async function uploadItem(uploadId: string) {
  return (await ddb().send(new GetCommand({ TableName: process.env.TABLE_NAME, Key: keys.upload(uploadId) }))).Item!;
}

/** Moves a pending upload's reservation expiry into the past (instead of waiting for it). */
async function expireUpload(uploadId: string) {
  const item = await uploadItem(uploadId);
  const past = new Date(Date.now() - 1000).toISOString();
  const index = item.company_id
    ? keys.pendingUploadIndex(String(item.company_id), past, uploadId)
    : keys.pendingUserUploadIndex(String(item.held_by), past, uploadId);
  await ddb().send(
    new UpdateCommand({
      TableName: process.env.TABLE_NAME,
      Key: keys.upload(uploadId),
      UpdateExpression: 'SET expires_at = :p, gsi1sk = :sk',
      ExpressionAttributeValues: { ':p': past, ':sk': index.gsi1sk },
    }),
  );
}

type Signed = { uploadURL: string; upload_id: string; key: string; headers: Record<string, string> };

describe('upload reservations, write-once and size-bound upload URLs', { timeout: 150_000 }, () => {
  let t: TestStack;
  beforeAll(async () => {
    process.env.MAX_PENDING_UPLOADS_PER_USER = '3';
    process.env.UPLOAD_RESERVATION_MINUTES = '5';
    resetEnvCache();
    t = await startTestStack();
  });
  afterAll(async () => {
    await t?.stop();
    delete process.env.MAX_PENDING_UPLOADS_PER_USER;
    delete process.env.UPLOAD_RESERVATION_MINUTES;
    resetEnvCache();
  }, 240_000);

  it('caps the reservations one user holds, with a message saying why; others keep uploading; used or expired ones count no more', async () => {
    const { api, companyId } = await registeredUser(t.stack, 'hoarder');
    const colleague = await registeredUser(t.stack, 'colleague');
    await addMembership(subOf(colleague.token), companyId, 'basic');
    const ask = (client: typeof api, name: string) => client.get(`/upload/document?company_id=${companyId}&original_file_name=${name}&size=100`);

    // The reservation expires after the configured minutes.
    const first = await ask(api, 'never-1.pdf');
    expect(first.status).toBe(200);
    const stored = await uploadItem((first.body as Signed).upload_id);
    const minutes = (Date.parse(String(stored.expires_at)) - Date.parse(String(stored.created_at))) / 60_000;
    expect(minutes).toBe(5);

    // Concurrent requests cannot pass the cap.
    const more = await Promise.all(['never-2.pdf', 'never-3.pdf', 'never-4.pdf', 'never-5.pdf'].map((n) => ask(api, n)));
    expect(more.map((r) => r.status).sort()).toEqual([200, 200, 429, 429]);
    expect(more.find((r) => r.status === 429)!.body).toMatchObject({
      statusCode: 429,
      error: 'QuotaExceeded',
      message: 'You have 3 uploads waiting for their files. Upload reservations that are not used expire after 5 minutes; try again when your uploads have finished.',
    });
    // Another member of the same company is not locked out.
    expect((await ask(colleague.api, 'theirs.pdf')).status).toBe(200);

    // An expired reservation is given back, and with it the user's count.
    await expireUpload((first.body as Signed).upload_id);
    const afterExpiry = await uploadDocument(api, { company_id: companyId, original_file_name: 'real.pdf' }, await textPdf(['Real UAB', 'Total 3.00']));
    expect(afterExpiry.request.status).toBe(200);
    expect((await ask(api, 'never-6.pdf')).status).toBe(429);
    // A reservation whose file arrived and became a document counts no more.
    await t.stack.jobs.idle();
    expect((await ask(api, 'next.pdf')).status).toBe(200);
  });

  it('caps the pending uploads of the all-companies view per user alike, with the same 429; expired or used ones count no more', async () => {
    const { api, companyId } = await registeredUser(t.stack, 'nonehoarder');
    const other = await registeredUser(t.stack, 'noneother');
    const ask = (client: typeof api, name: string) => client.get(`/upload/document?company_id=NONE&original_file_name=${name}&size=100`);

    const first = await ask(api, 'none-1.pdf');
    expect(first.status).toBe(200);
    // Concurrent requests cannot pass the cap (3 here, MAX_PENDING_UPLOADS_PER_USER; 50 by default).
    const more = await Promise.all(['none-2.pdf', 'none-3.pdf', 'none-4.pdf', 'none-5.pdf'].map((n) => ask(api, n)));
    expect(more.map((r) => r.status).sort()).toEqual([200, 200, 429, 429]);
    expect(more.find((r) => r.status === 429)!.body).toEqual({
      statusCode: 429,
      error: 'QuotaExceeded',
      message: 'You have 3 uploads waiting for their files. Upload reservations that are not used expire after 5 minutes; try again when your uploads have finished.',
    });
    // The company's count and the all-companies count are apart; another user is not locked out.
    expect((await api.get(`/upload/document?company_id=${companyId}&original_file_name=company.pdf&size=100`)).status).toBe(200);
    expect((await ask(other.api, 'theirs.pdf')).status).toBe(200);

    // An expired one is given back before the next request, and with it the user's count.
    await expireUpload((first.body as Signed).upload_id);
    expect((await uploadItem((first.body as Signed).upload_id)).state).toBe('pending');
    const afterExpiry = await uploadDocument(api, { company_id: 'NONE', original_file_name: 'real.pdf' }, await textPdf(['Real UAB', 'Total 3.00']));
    expect(afterExpiry.request.status).toBe(200);
    expect((await uploadItem((first.body as Signed).upload_id)).state).toBe('released');
    expect((await ask(api, 'none-6.pdf')).status).toBe(429);
    // One whose file arrived and became a document counts no more.
    await t.stack.jobs.idle();
    expect((await ask(api, 'none-7.pdf')).status).toBe(200);
    expect((await ask(api, 'none-8.pdf')).status).toBe(429);
  });

  it('says when the company quota is held by uploads in progress', async () => {
    const { api, companyId } = await registeredUser(t.stack, 'quotaheld');
    await setAvailableDocuments(companyId, 1);
    expect((await api.get(`/upload/document?company_id=${companyId}&original_file_name=a.pdf&size=100`)).status).toBe(200);
    const over = await api.get(`/upload/document?company_id=${companyId}&original_file_name=b.pdf&size=100`);
    expect(over.status).toBe(429);
    expect(over.body).toMatchObject({
      message:
        'The monthly document limit of this company is reached (1 document a month). Ask a platform administrator to raise it. 1 of them is reserved by uploads in progress; reservations that are not used are released after 5 minutes.',
    });
  });

  it('an upload URL writes once: a second PUT never replaces the file of a processed document', async () => {
    const { api, companyId } = await registeredUser(t.stack, 'writeonce');
    const bytes = await textPdf(['First UAB', 'Total 5.00']);
    const first = await uploadDocument(api, { company_id: companyId, original_file_name: 'once.pdf' }, bytes);
    expect(first.put!.status).toBe(200);
    const signed = first.request.body as Signed;
    expect(signed.headers).toMatchObject({ 'if-none-match': '*' });
    await t.stack.jobs.idle();
    const before = await s3Files.head(signed.key);

    const other = await textPdf(['Other UAB', 'Total 9.00']);
    const padded = new Uint8Array(bytes.length);
    padded.set(other.slice(0, bytes.length));
    // The same URL and headers again: S3's conditional write refuses it.
    const again = await fetch(signed.uploadURL, { method: 'PUT', headers: signed.headers, body: padded });
    expect(again.status).toBe(412);
    expect(await again.text()).toContain('PreconditionFailed');
    // Without the signed If-None-Match header the signature no longer matches.
    const { 'if-none-match': _dropped, ...unconditional } = signed.headers;
    expect((await fetch(signed.uploadURL, { method: 'PUT', headers: unconditional, body: padded })).status).toBe(403);
    expect(await s3Files.head(signed.key)).toEqual(before);
  });

  it('binds the declared size into the URL: another length is refused by the store', async () => {
    const { api, companyId } = await registeredUser(t.stack, 'sizebound');
    const asked = await api.get(`/upload/document?company_id=${companyId}&original_file_name=small.pdf&size=100`);
    const signed = asked.body as Signed;
    expect(new URL(signed.uploadURL).searchParams.get('X-Amz-SignedHeaders')).toContain('content-length');
    const larger = await fetch(signed.uploadURL, { method: 'PUT', headers: signed.headers, body: new Uint8Array(300_000) });
    expect(larger.status).toBe(403);
    expect(await larger.text()).toContain('SignatureDoesNotMatch');
    expect(await s3Files.head(signed.key)).toBeUndefined();
    const exact = await fetch(signed.uploadURL, { method: 'PUT', headers: signed.headers, body: new Uint8Array(100) });
    expect(exact.status).toBe(200);
  });

  it('signs the declared content type into the URL: another type is refused, the object keeps the declared one', async () => {
    const { api, companyId } = await registeredUser(t.stack, 'typebound');
    const asked = await api.get(`/upload/document?company_id=${companyId}&original_file_name=scan.png&content_type=image%2Fpng&size=100`);
    const signed = asked.body as Signed;
    expect(signed.headers).toEqual({ 'content-type': 'image/png', 'if-none-match': '*' });
    expect(new URL(signed.uploadURL).searchParams.get('X-Amz-SignedHeaders')).toBe('content-length;content-type;host;if-none-match');
    const body = new Uint8Array(100);
    const html = await fetch(signed.uploadURL, { method: 'PUT', headers: { ...signed.headers, 'content-type': 'text/html' }, body });
    expect(html.status).toBe(403);
    expect(await html.text()).toContain('SignatureDoesNotMatch');
    const { 'content-type': _dropped, ...untyped } = signed.headers;
    expect((await fetch(signed.uploadURL, { method: 'PUT', headers: untyped, body })).status).toBe(403);
    expect(await s3Files.head(signed.key)).toBeUndefined();
    expect((await fetch(signed.uploadURL, { method: 'PUT', headers: signed.headers, body })).status).toBe(200);
    expect((await s3Files.get(signed.key)).contentType).toBe('image/png');
  });

  it('the job refuses an object over the largest upload from its metadata, and reads with a cap and a version', async () => {
    const { api, companyId } = await registeredUser(t.stack, 'oversize');
    const asked = await api.get(`/upload/document?company_id=${companyId}&original_file_name=huge.pdf&size=100`);
    const signed = asked.body as Signed;
    // An object larger than any upload arrives under the key (written with the product's own credentials).
    const huge = new Uint8Array(READ_MAX_BYTES + 1024);
    huge.set(new TextEncoder().encode('%PDF-1.4\n'));
    await s3Files.put(signed.key, huge, 'application/pdf');
    await t.stack.jobs.idle();
    const list = (await api.get(`/receipts?company_id=${companyId}`)).body as { items: { status: string; error: { message: string } | null }[] };
    expect(list.items).toHaveLength(1);
    expect(list.items[0]).toMatchObject({ status: 'failed', error: { message: 'File size limits 30MB' } });

    const head = (await s3Files.head(signed.key))!;
    await expect(s3Files.get(signed.key, { maxBytes: 1024 })).rejects.toBeInstanceOf(ObjectTooLarge);
    await expect(s3Files.get(signed.key, { ifMatch: 'not-its-etag' })).rejects.toBeInstanceOf(ObjectChanged);
    expect((await s3Files.get(signed.key, { ifMatch: head.etag })).size).toBe(huge.length);
  });
});
