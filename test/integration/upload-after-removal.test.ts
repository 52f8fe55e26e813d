/**
 * A member removed from a company after asking for an upload URL (valid 15 minutes) can no longer upload into it:
 * the processing job finds the uploader is no member of the upload's company any more, creates no document, gives the
 * reservation back (usage and the member's outstanding uploads) and deletes the object. A member who stays is
 * served as before. Through the real handlers and the processing job against the local stand-ins.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ddb } from '../../lambdas/adapters/ddb/client';
import { keys } from '../../lambdas/adapters/ddb/keys';
import { tableName } from '../../lambdas/adapters/ddb/table-ops';
import { monthOf } from '../../lambdas/core/accounts/companies';
import { deps } from '../../lambdas/runtime/deps';
import { addMembership, registeredUser, startTestStack, subOf, type TestStack } from '../support/local-stack';
import { invoicePdf } from './content-fixtures';

type Api = Awaited<ReturnType<typeof registeredUser>>['api'];

async function askUpload(api: Api, companyId: string, fileName: string, bytes: Uint8Array) {
  const q = new URLSearchParams({ company_id: companyId, receipt_type: 'invoice', original_file_name: fileName, size: String(bytes.length), content_type: 'application/pdf' });
  const res = await api.get(`/upload/document?${q}`);
  expect(res.status).toBe(200);
  return res.body as { uploadURL: string; headers: Record<string, string>; upload_id: string };
}

const put = (url: { uploadURL: string; headers: Record<string, string> }, bytes: Uint8Array) =>
  fetch(url.uploadURL, { method: 'PUT', headers: url.headers, body: Buffer.from(bytes) });

async function outstanding(companyId: string, userId: string): Promise<number> {
  const item = (await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.uploadHolds(companyId, userId), ConsistentRead: true }))).Item;
  return Number(item?.outstanding ?? 0);
}

describe('an upload URL of a member removed before the file arrives', () => {
  let t: TestStack;
  beforeAll(async () => {
    t = await startTestStack();
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('makes no document, gives the reservation back and deletes the object', async () => {
    const admin = await registeredUser(t.stack, 'owner');
    const member = await registeredUser(t.stack, 'leaver');
    const memberId = subOf(member.token);
    await addMembership(memberId, admin.companyId, 'basic');
    const q = `company_id=${admin.companyId}`;
    const month = monthOf(new Date());
    const bytes = await invoicePdf();
    const before = await deps().documents.usage(admin.companyId, month);

    const url = await askUpload(member.api, admin.companyId, 'after-removal.pdf', bytes);
    expect(await deps().documents.usage(admin.companyId, month)).toMatchObject({ reserved_documents: before.reserved_documents + 1 });
    expect(await outstanding(admin.companyId, memberId)).toBe(1);

    expect((await admin.api.delete(`/company/users/${memberId}?${q}`)).status).toBe(200);
    const sent = await put(url, bytes);
    expect(sent.ok).toBe(true);
    await t.stack.jobs.idle(60_000);

    const list = (await admin.api.get(`/receipts?${q}&limit=50`)).body as { items: { original_file_name: string }[] };
    expect(list.items.filter((d) => d.original_file_name === 'after-removal.pdf')).toEqual([]);
    const upload = (await deps().documents.getUpload(url.upload_id))!;
    expect(upload.state).toBe('released');
    expect(upload.document_ids).toEqual([]);
    expect(await deps().documents.usage(admin.companyId, month)).toMatchObject({
      used_documents: before.used_documents,
      reserved_documents: before.reserved_documents,
      quota_taken: before.quota_taken,
    });
    expect(await outstanding(admin.companyId, memberId)).toBe(0);
    expect(await deps().files.head(upload.key)).toBeUndefined();
  });

  it('a member who stays gets the document as before', async () => {
    const admin = await registeredUser(t.stack, 'owner2');
    const member = await registeredUser(t.stack, 'stayer');
    await addMembership(subOf(member.token), admin.companyId, 'basic');
    const q = `company_id=${admin.companyId}`;
    const bytes = await invoicePdf();
    const url = await askUpload(member.api, admin.companyId, 'member-upload.pdf', bytes);
    expect((await put(url, bytes)).ok).toBe(true);
    await t.stack.jobs.idle(60_000);
    const list = (await admin.api.get(`/receipts?${q}&limit=50`)).body as { items: { original_file_name: string; user_id: string }[] };
    expect(list.items.filter((d) => d.original_file_name === 'member-upload.pdf')).toEqual([expect.objectContaining({ user_id: subOf(member.token) })]);
    expect((await deps().documents.getUpload(url.upload_id))!.state).toBe('consumed');
  });
});
