/**
 * Company-wide live events and membership, through the real handlers and the local WebSocket adapter: a removed
 * member stops receiving the company's events at once (not when their connection expires), and a `company`
 * event never hands an admin's role to a basic member's screen.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ddb } from '../../lambdas/adapters/ddb/client';
import { documentItemsWithIndex } from '../../lambdas/adapters/ddb/documents-store';
import { batchWrite } from '../../lambdas/adapters/ddb/table-ops';
import { keys } from '../../lambdas/adapters/ddb/keys';
import { seededDocument } from '../support/document-records';
import { addMembership, openLiveChannel, registeredUser, startTestStack, subOf, type TestStack } from '../support/local-stack';

type Message = { event: string; payload: unknown };
const receiptUpdates = (messages: Message[], receiptId: string) =>
  messages.filter((m) => m.event === 'receipt-update' && (m.payload as { receipt_id?: string }).receipt_id === receiptId);

async function waitUntil(check: () => boolean, timeoutMs = 5000) {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The users of the subscriptions to a company (A10's partition, expired ones too). */
async function subscribersOf(companyId: string): Promise<string[]> {
  const res = await ddb().send(
    new QueryCommand({
      TableName: process.env.TABLE_NAME,
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.connectionOfCompanyIndex(companyId, '').gsi1pk },
    }),
  );
  return (res.Items ?? []).map((i) => String(i.user_id));
}

describe('live events and company membership', () => {
  let t: TestStack;
  beforeAll(async () => {
    t = await startTestStack();
  });
  afterAll(async () => {
    await t?.stop();
  });

  it("a removed member's open screens get none of the company's events; the admin's still do", async () => {
    // Prepare: a basic member of the admin's company, with one screen on the company and one on all companies
    const admin = await registeredUser(t.stack, 'liveadmin');
    const member = await registeredUser(t.stack, 'livemember');
    const memberId = subOf(member.token);
    await addMembership(memberId, admin.companyId, 'basic');
    const doc = seededDocument({ receipt_id: `LIVEMEMBER${Date.now()}`, scope: `C#${admin.companyId}`, created_at: new Date().toISOString() });
    await batchWrite(documentItemsWithIndex(doc).map((Item) => ({ PutRequest: { Item } })));
    const adminLive = await openLiveChannel(t.stack.wsUrl, admin.token, admin.companyId);
    const memberLive = await openLiveChannel(t.stack.wsUrl, member.token, admin.companyId);
    const memberAll = await openLiveChannel(t.stack.wsUrl, member.token, 'ALL');
    const flag = (on: boolean) => admin.api.post(`/receipt/${doc.receipt_id}/flag?company_id=${admin.companyId}`, { flag: on });
    // While a member, they follow the company's documents on both screens
    expect((await flag(true)).status).toBe(200);
    await waitUntil(() => [adminLive, memberLive, memberAll].every((l) => receiptUpdates(l.messages, doc.receipt_id).length === 1));

    // Act: the admin removes the member, then changes the document again
    const removed = await admin.api.delete(`/company/users/${memberId}?company_id=${admin.companyId}`);
    expect(removed.status).toBe(200);
    expect((await flag(false)).status).toBe(200);

    // Assess: the admin gets the second change; the removed member's screens do not, and are told the company is gone
    await waitUntil(() => receiptUpdates(adminLive.messages, doc.receipt_id).length === 2);
    expect(receiptUpdates(adminLive.messages, doc.receipt_id)[1]!.payload).toMatchObject({ flag: false });
    await new Promise((r) => setTimeout(r, 300));
    expect(receiptUpdates(memberLive.messages, doc.receipt_id)).toHaveLength(1);
    expect(receiptUpdates(memberAll.messages, doc.receipt_id)).toHaveLength(1);
    expect((await memberLive.waitFor('company-delete')).payload).toEqual({ company_id: admin.companyId });
    expect((await memberAll.waitFor('company-delete')).payload).toEqual({ company_id: admin.companyId });
    // The subscriptions themselves are gone (not merely skipped), the admin's stays
    const subscribers = await subscribersOf(admin.companyId);
    expect(subscribers).not.toContain(memberId);
    expect(subscribers).toContain(subOf(admin.token));
    // The member's own company still reaches their all-companies screen
    expect((await member.api.get('/companies')).body).toMatchObject({ items: [{ company_id: member.companyId }] });
    adminLive.close();
    memberLive.close();
    memberAll.close();
  });

  it("a company event (an integration switched by an admin) carries no role to a basic member's screen", async () => {
    // Prepare
    const admin = await registeredUser(t.stack, 'roleadmin');
    const basic = await registeredUser(t.stack, 'rolebasic');
    await addMembership(subOf(basic.token), admin.companyId, 'basic');
    const basicLive = await openLiveChannel(t.stack.wsUrl, basic.token, admin.companyId);
    // Act
    const switched = await admin.api.post(`/company/service?company_id=${admin.companyId}`, { type: 'display_imported_stakeholders', enabled: true });
    // Assess: the admin's answer is theirs (admin); the broadcast has no role at all
    expect(switched.status).toBe(200);
    expect(switched.body).toMatchObject({ company_id: admin.companyId, role: 'admin', display_imported_stakeholders: true });
    const event = await basicLive.waitFor('company', 5000);
    expect(event.payload).toMatchObject({ company_id: admin.companyId, display_imported_stakeholders: true });
    expect(event.payload).not.toHaveProperty('role');
    basicLive.close();
  });
});
