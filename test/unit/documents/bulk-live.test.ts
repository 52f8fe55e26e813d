/**
 * The WebSocket publisher's publishAll (a bulk action's live events): each channel's connections are looked up
 * once (subscriptions A10/A12, memberships A15) for all the events, every event reaches every connection of a
 * member, and a connection found gone gets nothing more.
 */
import { ApiGatewayManagementApiClient, GoneException, PostToConnectionCommand } from '@aws-sdk/client-apigatewaymanagementapi';
import { BatchGetCommand, BatchWriteCommand, DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resetDdbClient } from '../../../lambdas/adapters/ddb/client';
import { resetLiveEventsClient, wsLiveEvents } from '../../../lambdas/adapters/ws/live-events';
import { resetEnvCache } from '../../../lambdas/runtime/env';
import { guardedLive } from '../../../lambdas/runtime/lazy-adapters';

describe('publishAll of the WebSocket publisher', () => {
  const ddbMock = mockClient(DynamoDBDocumentClient);
  const wsMock = mockClient(ApiGatewayManagementApiClient);
  const future = Math.floor(Date.now() / 1000) + 3600;
  const sub = (connectionId: string, userId: string, channel = 'COMPANY#c1#CONNS') => ({ connection_id: connectionId, user_id: userId, gsi1pk: channel, ttl: future });
  const sentTo = () =>
    wsMock.commandCalls(PostToConnectionCommand).map((c) => ({
      to: c.args[0].input.ConnectionId,
      message: JSON.parse(new TextDecoder().decode(c.args[0].input.Data as Uint8Array)) as { event: string; payload: { receipt_id: string } },
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

  it('looks up the connections of each channel once for all its events', async () => {
    ddbMock.on(QueryCommand, { ExpressionAttributeValues: { ':pk': 'COMPANY#c1#CONNS' } } as never).resolves({ Items: [sub('k1', 'admin'), sub('k2', 'admin'), sub('k-gone', 'gone')] });
    ddbMock.on(QueryCommand, { ExpressionAttributeValues: { ':pk': 'USER#u1#CONNS' } } as never).resolves({ Items: [sub('k-own', 'u1', 'USER#u1#CONNS')] });
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
    ddbMock.on(QueryCommand).resolves({ Items: [sub('k1', 'admin'), sub('k-closed', 'admin')] });
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
