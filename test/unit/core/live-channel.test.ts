/**
 * The live channel's company-wide events: a `company` event carries no member's own role (whoever built it), a
 * removed member's subscriptions end and their screens are told, and the publisher skips a subscription whose user
 * is no longer a member.
 */
import { ApiGatewayManagementApiClient, GoneException, PostToConnectionCommand } from '@aws-sdk/client-apigatewaymanagementapi';
import { BatchGetCommand, BatchWriteCommand, DynamoDBDocumentClient, GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetDdbClient } from '../../../lambdas/adapters/ddb/client';
import { ddbConnectionStore } from '../../../lambdas/adapters/ddb/connection-store';
import { resetLiveEventsClient, wsLiveEvents } from '../../../lambdas/adapters/ws/live-events';
import { toCompanyView } from '../../../lambdas/core/accounts/companies';
import type { CompanyRecord } from '../../../lambdas/core/accounts/types';
import { completeAuthorization, stateHashOf, type DriveDeps } from '../../../lambdas/core/drive-import/service';
import { companyEventPayload, publishCompanyChange } from '../../../lambdas/core/live/company-event';
import {
  CONNECTION_TTL_SECONDS,
  connectionTimes,
  renewConnection,
  subscribedUntil,
  TOKEN_GRACE_SECONDS,
  type ConnectionRecord,
} from '../../../lambdas/core/live/connections';
import type { LiveEventName, LiveEvents } from '../../../lambdas/core/ports';
import { deleteCompanyUser } from '../../../lambdas/core/team/members';
import type { MemberRecord, TeamStore } from '../../../lambdas/core/team/types';
import { resetEnvCache } from '../../../lambdas/runtime/env';
import { guardedLive } from '../../../lambdas/runtime/lazy-adapters';

const record: CompanyRecord = {
  company_id: 'c1',
  name: 'Acme UAB',
  code: '300',
  unique_name: 'acme-uab-abc123',
  email: 'acme-uab-abc123@in.receipts.local',
  created_at: '2026-11-25T10:00:00.000Z',
  owner: { user_id: 'admin', name: 'Ona', surname: 'Onaitė', email: 'ona@example.com' },
  available_documents: 500,
  vat_account: '',
  integrations: { ftp_export: true } as CompanyRecord['integrations'],
  google_selected_import_folder_name: null,
  dropbox_selected_import_folder_name: null,
};

function recordingLive() {
  const sent: { to: string; event: LiveEventName; payload: unknown }[] = [];
  const live: LiveEvents = {
    publish: async (companyId, event, payload) => void sent.push({ to: `company:${companyId}`, event, payload }),
    publishToUser: async (userId, event, payload) => void sent.push({ to: `user:${userId}`, event, payload }),
  };
  return { live, sent };
}

describe('company live events carry no member role', () => {
  it('the payload is the company as every member sees it, without role', async () => {
    // Prepare: the view an admin's call answers
    const view = toCompanyView(record, 'admin', undefined, '');
    const { live, sent } = recordingLive();
    // Act
    const payload = companyEventPayload(view);
    await publishCompanyChange(live, view);
    // Assess
    expect(payload).not.toHaveProperty('role');
    expect(payload).toMatchObject({ company_id: 'c1', name: 'Acme UAB', ftp_export: true });
    expect(sent).toEqual([{ to: 'company:c1', event: 'company', payload }]);
    expect(view.role).toBe('admin');
  });

  it('carries the Email-in address at the deployed domain', async () => {
    const { live, sent } = recordingLive();
    await publishCompanyChange(live, toCompanyView(record, 'admin', undefined, 'in.example.com'));
    expect(sent[0]!.payload).toMatchObject({ company_id: 'c1', email: 'acme-uab-abc123@in.example.com' });
  });

  it("a drive connection answers the admin's view but tells the members without the admin's role", async () => {
    // Prepare: an OAuth state handed out to the admin, and stores that know the admin's membership
    const now = new Date('2026-11-25T10:00:00Z');
    const { live, sent } = recordingLive();
    const state = 'the-state';
    const sealed = (plain: string) => ({ alg: 'local-aes-256-gcm', key_id: 'k', ciphertext: Buffer.from(plain).toString('base64') });
    const deps = {
      store: {
        getMembership: async () => ({ user_id: 'admin', company_id: 'c1', role: 'admin' }),
        getCompanies: async () => [record],
        getCompanyStats: async () => new Map(),
      },
      drive: {
        takeState: async (hash: string) =>
          hash === stateHashOf(state)
            ? { state_hash: hash, company_id: 'c1', user_id: 'admin', service: 'google', verifier: sealed('v'), expires_at: '2026-11-25T10:10:00.000Z' }
            : undefined,
        getImport: async () => undefined,
        putImport: async () => undefined,
        setCompanyDrive: async () => undefined,
      },
      integrations: { putCredentials: async () => undefined, getCredentials: async () => undefined },
      secrets: { seal: async (plain: string) => sealed(plain), open: async (s: { ciphertext: string }) => Buffer.from(s.ciphertext, 'base64').toString('utf8') },
      providers: {
        google: {
          authorizationUrl: async () => ({ url: 'https://provider.example/auth', codeVerifier: 'v' }),
          exchangeCode: async () => ({ access_token: 'at', refresh_token: 'rt', expires_at: null }),
          session: () => {
            throw new Error('not used');
          },
        },
      },
      clock: { now: () => now },
      live,
      appUrl: 'https://app.example',
      emailInDomain: '',
    } as unknown as DriveDeps;
    // Act
    const answer = await completeAuthorization(deps, { userId: 'admin', companyId: 'c1' }, { service_type: 'google', code: 'code', state });
    // Assess
    expect(answer.role).toBe('admin');
    const events = sent.filter((s) => s.event === 'company');
    expect(events).toHaveLength(1);
    expect(events[0]!.payload).toMatchObject({ company_id: 'c1' });
    expect(events[0]!.payload).not.toHaveProperty('role');
  });
});

describe('removing a member ends their live subscriptions to the company', () => {
  it('unsubscribes the removed user from that company and tells their own channel', async () => {
    // Prepare
    const members: MemberRecord[] = [
      { user_id: 'admin', company_id: 'c1', role: 'admin', joined_at: '' },
      { user_id: 'basic', company_id: 'c1', role: 'basic', joined_at: '' },
    ];
    const removed: string[] = [];
    const cancelled: string[] = [];
    const team = {
      listMembers: async () => members,
      removeMember: async (companyId: string, userId: string) => void removed.push(`${companyId}:${userId}`),
      // the removed member's pending invitation ends with their membership; the admin's stays
      listInvitations: async () => [
        { id: 'i-basic', company_id: 'c1', invited_by: 'basic', used_at: null },
        { id: 'i-admin', company_id: 'c1', invited_by: 'admin', used_at: null },
      ],
      cancelInvitation: async (id: string) => { cancelled.push(id); return true; },
    } as unknown as TeamStore;
    const unsubscribed: string[] = [];
    const connections = { unsubscribeUser: async (userId: string, companyId: string) => void unsubscribed.push(`${companyId}:${userId}`) };
    const { live, sent } = recordingLive();
    const store = { getCompanies: async () => [record] } as never;
    // Act
    const res = await deleteCompanyUser({ store, team, connections, live }, 'admin', 'c1', 'basic');
    // Assess
    expect(res).toEqual({ deleted: true, user_id: 'basic' });
    expect(removed).toEqual(['c1:basic']);
    expect(unsubscribed).toEqual(['c1:basic']);
    expect(sent).toEqual([{ to: 'user:basic', event: 'company-delete', payload: { company_id: 'c1' } }]);
    expect(cancelled).toEqual(['i-basic']);
  });
});

describe('the WebSocket publisher (adapter)', () => {
  const ddbMock = mockClient(DynamoDBDocumentClient);
  const wsMock = mockClient(ApiGatewayManagementApiClient);
  const future = Math.floor(Date.now() / 1000) + 3600;
  const sub = (connectionId: string, userId: string) => ({
    pk: `CONN#${connectionId}`,
    sk: 'SUB#c1',
    gsi1pk: 'COMPANY#c1#CONNS',
    gsi1sk: `CONN#${connectionId}`,
    connection_id: connectionId,
    company_id: 'c1',
    user_id: userId,
    ttl: future,
  });
  const membership = (userId: string, role: string) => ({ pk: `USER#${userId}`, sk: 'MEMBER#c1', user_id: userId, company_id: 'c1', role });
  const sentTo = () =>
    wsMock.commandCalls(PostToConnectionCommand).map((c) => ({
      to: c.args[0].input.ConnectionId,
      message: JSON.parse(new TextDecoder().decode(c.args[0].input.Data as Uint8Array)) as { event: string; payload: Record<string, unknown> },
    }));

  beforeEach(() => {
    process.env.TABLE_NAME = 'unit-table';
    process.env.WS_CALLBACK_URL = 'https://ws.example/stage';
    resetEnvCache();
    resetDdbClient();
    resetLiveEventsClient();
    ddbMock.reset();
    wsMock.reset();
    wsMock.on(PostToConnectionCommand).resolves({});
  });
  afterEach(() => {
    delete process.env.WS_CALLBACK_URL;
    resetEnvCache();
    resetLiveEventsClient();
    ddbMock.reset();
    wsMock.reset();
  });

  it('drops the role from a company event whoever built it (a whole admin view)', async () => {
    ddbMock.on(QueryCommand).resolves({ Items: [sub('k-admin', 'admin'), sub('k-basic', 'basic')] });
    ddbMock.on(BatchGetCommand).resolves({ Responses: { 'unit-table': [membership('admin', 'admin'), membership('basic', 'basic')] } });
    await wsLiveEvents.publish('c1', 'company', toCompanyView(record, 'admin', undefined, ''));
    const sent = sentTo();
    expect(sent.map((s) => s.to).sort()).toEqual(['k-admin', 'k-basic']);
    for (const s of sent) {
      expect(s.message.event).toBe('company');
      expect(s.message.payload).toMatchObject({ company_id: 'c1', name: 'Acme UAB' });
      expect(s.message.payload).not.toHaveProperty('role');
    }
  });

  it('skips a subscription whose user is no longer a member (one consistent read of the memberships)', async () => {
    ddbMock.on(QueryCommand).resolves({ Items: [sub('k-admin', 'admin'), sub('k-gone', 'gone'), sub('k-admin2', 'admin')] });
    ddbMock.on(BatchGetCommand).resolves({ Responses: { 'unit-table': [membership('admin', 'admin')] } });
    await wsLiveEvents.publish('c1', 'receipt-update', { receipt_id: 'r1', company_id: 'c1' });
    expect(sentTo().map((s) => s.to).sort()).toEqual(['k-admin', 'k-admin2']);
    const reads = ddbMock.commandCalls(BatchGetCommand);
    expect(reads).toHaveLength(1);
    expect(reads[0]!.args[0].input.RequestItems!['unit-table']).toMatchObject({
      ConsistentRead: true,
      Keys: [
        { pk: 'USER#admin', sk: 'MEMBER#c1' },
        { pk: 'USER#gone', sk: 'MEMBER#c1' },
      ],
    });
  });

  // Live events go out after the change they report committed: one that fails never turns the action into an error.
  it('a send that fails (throttled) is logged and skipped, and the other connections still get the event', async () => {
    ddbMock.on(QueryCommand).resolves({ Items: [sub('k-admin', 'admin'), sub('k-busy', 'admin')] });
    ddbMock.on(BatchGetCommand).resolves({ Responses: { 'unit-table': [membership('admin', 'admin')] } });
    wsMock.on(PostToConnectionCommand, { ConnectionId: 'k-busy' }).rejects(Object.assign(new Error('Rate exceeded'), { name: 'LimitExceededException' }));
    const warned = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await expect(wsLiveEvents.publish('c1', 'receipt-update', { receipt_id: 'r1', company_id: 'c1' })).resolves.toBeUndefined();
    // both were tried; the throttled one's failure did not stop the other's
    expect(sentTo().map((s) => s.to).sort()).toEqual(['k-admin', 'k-busy']);
    expect(warned.mock.calls.map((c) => JSON.parse(String(c[0])))).toEqual([
      expect.objectContaining({ level: 'warn', msg: 'a live event was not sent', what: 'send', connection_id: 'k-busy', event: 'receipt-update', error: 'LimitExceededException: Rate exceeded' }),
    ]);
    warned.mockRestore();
  });

  it('a look-up of the connections that fails is logged, and publish, publishToUser and publishAll still resolve', async () => {
    ddbMock.on(QueryCommand).rejects(Object.assign(new Error('slow down'), { name: 'ProvisionedThroughputExceededException' }));
    const warned = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await expect(wsLiveEvents.publish('c1', 'receipt-update', { receipt_id: 'r1' })).resolves.toBeUndefined();
    await expect(wsLiveEvents.publishToUser('u1', 'receipt-delete', { receipt_id: 'r1' })).resolves.toBeUndefined();
    await expect(wsLiveEvents.publishAll!([{ companyId: 'c1', event: 'receipt-update', payload: { receipt_id: 'r1' } }])).resolves.toBeUndefined();
    expect(sentTo()).toEqual([]);
    const lines = warned.mock.calls.map((c) => JSON.parse(String(c[0])) as { what: string; error: string });
    expect(lines).toHaveLength(3);
    for (const l of lines) expect(l).toMatchObject({ what: 'look-up', error: expect.stringMatching(/^ProvisionedThroughputExceededException/) });
    warned.mockRestore();
  });

  it('reads no memberships when nobody follows the company', async () => {
    ddbMock.on(QueryCommand).resolves({ Items: [] });
    await wsLiveEvents.publish('c1', 'receipt', { receipt_id: 'r1' });
    expect(ddbMock.commandCalls(BatchGetCommand)).toHaveLength(0);
    expect(sentTo()).toEqual([]);
  });

  // publishAll (a bulk action's live events): each channel's connections are looked up once (A10/A12, A15) for all
  // the events, every event reaches every connection of a member, a connection found gone gets nothing more.
  describe('publishAll', () => {
    const onChannel = (connectionId: string, userId: string, channel = 'COMPANY#c1#CONNS') => ({ connection_id: connectionId, user_id: userId, gsi1pk: channel, ttl: future });

    it('looks up the connections of each channel once for all its events', async () => {
      ddbMock.on(QueryCommand, { ExpressionAttributeValues: { ':pk': 'COMPANY#c1#CONNS' } } as never).resolves({ Items: [onChannel('k1', 'admin'), onChannel('k2', 'admin'), onChannel('k-gone', 'gone')] });
      ddbMock.on(QueryCommand, { ExpressionAttributeValues: { ':pk': 'USER#u1#CONNS' } } as never).resolves({ Items: [onChannel('k-own', 'u1', 'USER#u1#CONNS')] });
      ddbMock.on(BatchGetCommand).resolves({ Responses: { 'unit-table': [{ pk: 'USER#admin', sk: 'MEMBER#c1', user_id: 'admin', company_id: 'c1' }] } });
      const ids = Array.from({ length: 20 }, (_, i) => `r${i}`);
      await wsLiveEvents.publishAll!([
        ...ids.map((id) => ({ companyId: 'c1', event: 'receipt-update' as const, payload: { receipt_id: id } })),
        { userId: 'u1', event: 'receipt-delete', payload: { receipt_id: 'mine' } },
      ]);
      expect(ddbMock.commandCalls(QueryCommand)).toHaveLength(2);
      expect(ddbMock.commandCalls(BatchGetCommand)).toHaveLength(1);
      const sent = sentTo();
      for (const k of ['k1', 'k2']) expect(sent.filter((s) => s.to === k).map((s) => s.message.payload.receipt_id).sort()).toEqual([...ids].sort());
      expect(sent.filter((s) => s.to === 'k-own')).toEqual([{ to: 'k-own', message: { event: 'receipt-delete', payload: { receipt_id: 'mine' } } }]);
      expect(sent.filter((s) => s.to === 'k-gone')).toEqual([]);
    });

    it('sends nothing more to a connection found gone, and removes it', async () => {
      ddbMock.on(QueryCommand).resolves({ Items: [onChannel('k1', 'admin'), onChannel('k-closed', 'admin')] });
      ddbMock.on(BatchGetCommand).resolves({ Responses: { 'unit-table': [{ pk: 'USER#admin', sk: 'MEMBER#c1', user_id: 'admin', company_id: 'c1' }] } });
      ddbMock.on(BatchWriteCommand).resolves({ UnprocessedItems: {} });
      wsMock.on(PostToConnectionCommand, { ConnectionId: 'k-closed' }).rejects(new GoneException({ message: 'gone', $metadata: {} }));
      await guardedLive({ needs: new Set(['webSocketManage']), who: 'POST /receipts/bulk' }).publishAll!(
        Array.from({ length: 30 }, (_, i) => ({ companyId: 'c1', event: 'receipt-update' as const, payload: { receipt_id: `r${i}` } })),
      );
      const sent = sentTo();
      expect(sent.filter((s) => s.to === 'k1')).toHaveLength(30);
      // the sends already on their way when the first one answered Gone, no more
      expect(sent.filter((s) => s.to === 'k-closed').length).toBeLessThanOrEqual(8);
      expect(ddbMock.commandCalls(QueryCommand).length).toBeGreaterThan(1); // the gone connection's items, to remove them
    });

    it('is refused to a handler without webSocketManage', async () => {
      await expect(guardedLive({ needs: new Set(['table']), who: 'GET /user' }).publishAll!([{ companyId: 'c', event: 'receipt', payload: {} }])).rejects.toThrow(
        /GET \/user calls live\.publishAll .*'webSocketManage'/,
      );
    });
  });
});

describe('the connection store ends subscriptions (A13, A14) and renews them (A11)', () => {
  const ddbMock = mockClient(DynamoDBDocumentClient);
  beforeEach(() => {
    process.env.TABLE_NAME = 'unit-table';
    resetEnvCache();
    resetDdbClient();
    ddbMock.reset();
    ddbMock.on(BatchWriteCommand).resolves({});
  });
  afterEach(() => ddbMock.reset());

  const deleted = () =>
    ddbMock.commandCalls(BatchWriteCommand).flatMap((c) => c.args[0].input.RequestItems!['unit-table']!.map((r) => r.DeleteRequest!.Key));

  it("A13: the user's connections (gsi1 USER#<sub>#CONNS), then each one's subscription to the company", async () => {
    ddbMock.on(QueryCommand).resolves({ Items: [{ connection_id: 'k1' }, { connection_id: 'k2' }] });
    await ddbConnectionStore.unsubscribeUser('basic', 'c1');
    const query = ddbMock.commandCalls(QueryCommand)[0]!.args[0].input;
    expect(query).toMatchObject({ IndexName: 'gsi1', ExpressionAttributeValues: { ':pk': 'USER#basic#CONNS' } });
    expect(deleted()).toEqual([
      { pk: 'CONN#k1', sk: 'SUB#c1' },
      { pk: 'CONN#k2', sk: 'SUB#c1' },
    ]);
  });

  it('A14: every subscription to a deleted company (gsi1 COMPANY#<id>#CONNS)', async () => {
    ddbMock.on(QueryCommand).resolves({ Items: [{ pk: 'CONN#k1', sk: 'SUB#c1' }, { pk: 'CONN#k3', sk: 'SUB#c1' }] });
    await ddbConnectionStore.unsubscribeCompany('c1');
    expect(ddbMock.commandCalls(QueryCommand)[0]!.args[0].input).toMatchObject({ IndexName: 'gsi1', ExpressionAttributeValues: { ':pk': 'COMPANY#c1#CONNS' } });
    expect(deleted()).toEqual([
      { pk: 'CONN#k1', sk: 'SUB#c1' },
      { pk: 'CONN#k3', sk: 'SUB#c1' },
    ]);
  });

  it('moves the end of every item that still exists: the subscriptions’ ttl and the connection’s subscribed_until', async () => {
    ddbMock.on(QueryCommand).resolves({ Items: [{ pk: 'CONN#k1', sk: 'META' }, { pk: 'CONN#k1', sk: 'SUBUSER' }, { pk: 'CONN#k1', sk: 'SUB#c1' }] });
    ddbMock
      .on(UpdateCommand, { Key: { pk: 'CONN#k1', sk: 'SUB#c1' } })
      .rejects(Object.assign(new Error('gone'), { name: 'ConditionalCheckFailedException' }))
      .on(UpdateCommand, { Key: { pk: 'CONN#k1', sk: 'META' } })
      .resolves({})
      .on(UpdateCommand, { Key: { pk: 'CONN#k1', sk: 'SUBUSER' } })
      .resolves({});
    await ddbConnectionStore.renew('k1', 1_800_004_080);
    const updates = ddbMock.commandCalls(UpdateCommand).map((c) => c.args[0].input);
    expect(updates).toHaveLength(3);
    expect(updates[0]).toMatchObject({ Key: { pk: 'CONN#k1', sk: 'META' }, UpdateExpression: 'SET subscribed_until = :until', ConditionExpression: 'attribute_exists(pk)' });
    expect(updates[1]).toMatchObject({ Key: { pk: 'CONN#k1', sk: 'SUBUSER' }, UpdateExpression: 'SET #ttl = :until', ExpressionAttributeValues: { ':until': 1_800_004_080 } });
  });

  it('reads a connection recorded before the token bounded it as open for its two hours', async () => {
    ddbMock.on(GetCommand).resolves({ Item: { pk: 'CONN#k1', sk: 'META', user_id: 'u1', ttl: 1_800_007_200 } });
    expect(await ddbConnectionStore.connection('k1')).toEqual({ userId: 'u1', closesAt: 1_800_007_200, subscribedUntil: 1_800_007_200 });
    expect(ddbMock.commandCalls(GetCommand)[0]!.args[0].input).toMatchObject({ Key: { pk: 'CONN#k1', sk: 'META' }, ConsistentRead: true });
  });
});

describe('a connection gets events only while its access token is fresh', () => {
  const now = 1_800_000_000;
  const store = (record: ConnectionRecord | undefined) => {
    const renewed: number[] = [];
    return { renewed, store: { connection: async () => record, renew: async (_id: string, until: number) => void renewed.push(until) } };
  };

  it('subscribes until the token expires and the grace, never past the connection’s two hours', () => {
    expect(TOKEN_GRACE_SECONDS).toBe(480);
    expect(connectionTimes(now, now + 3600)).toEqual({ closesAt: now + CONNECTION_TTL_SECONDS, subscribedUntil: now + 3600 + 480 });
    expect(connectionTimes(now, now + 3 * 3600)).toEqual({ closesAt: now + 7200, subscribedUntil: now + 7200 });
    expect(subscribedUntil(now + 7200, now + 7000)).toBe(now + 7200);
  });

  it('a fresher token of the same user moves the end; an older one changes nothing', async () => {
    const s = store({ userId: 'u1', closesAt: now + 7000, subscribedUntil: now + 600 });
    expect(await renewConnection(s.store, 'k1', { sub: 'u1', exp: now + 3600 }, now)).toEqual({ lapsed: false });
    expect(s.renewed).toEqual([now + 3600 + TOKEN_GRACE_SECONDS]);
    const older = store({ userId: 'u1', closesAt: now + 7000, subscribedUntil: now + 4000 });
    expect(await renewConnection(older.store, 'k1', { sub: 'u1', exp: now + 100 }, now)).toEqual({ lapsed: false });
    expect(older.renewed).toEqual([]);
  });

  it('refuses another user’s token; ended subscriptions (or no connection) are lapsed, not renewed', async () => {
    const s = store({ userId: 'u1', closesAt: now + 7000, subscribedUntil: now + 600 });
    await expect(renewConnection(s.store, 'k1', { sub: 'intruder', exp: now + 3600 }, now)).rejects.toMatchObject({ statusCode: 403 });
    const lapsed = store({ userId: 'u1', closesAt: now + 7000, subscribedUntil: now - 1 });
    expect(await renewConnection(lapsed.store, 'k1', { sub: 'u1', exp: now + 3600 }, now)).toEqual({ lapsed: true });
    expect(await renewConnection(store(undefined).store, 'k1', { sub: 'u1', exp: now + 3600 }, now)).toEqual({ lapsed: true });
    expect([...s.renewed, ...lapsed.renewed]).toEqual([]);
  });
});
