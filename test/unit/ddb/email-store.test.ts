import { GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { ddbEmailStore } from '../../../lambdas/adapters/ddb/email-store';
import { mockDocumentTable } from '../../support/ddb-mock';

const ddbMock = mockDocumentTable();

describe('ddb email records: a company list (E10)', () => {
  it('reads the company partition of gsi1 newest first and answers the last position as next', async () => {
    ddbMock.on(QueryCommand).resolves({
      Items: [
        { pk: 'EMAIL#E2', sk: 'META', gsi1pk: 'COMPANY#c1#EMAILS', gsi1sk: '2026-11-21T08:00:00.000Z#E2', type: 'EMAIL', email_id: 'E2', company_id: 'c1' },
        { pk: 'EMAIL#E1', sk: 'META', gsi1pk: 'COMPANY#c1#EMAILS', gsi1sk: '2026-11-20T08:00:00.000Z#E1', type: 'EMAIL', email_id: 'E1', company_id: 'c1' },
      ],
      LastEvaluatedKey: { pk: 'EMAIL#E1', sk: 'META', gsi1pk: 'COMPANY#c1#EMAILS', gsi1sk: '2026-11-20T08:00:00.000Z#E1' },
    });
    const page = await ddbEmailStore.listOfCompany('c1', { limit: 1 });
    expect(ddbMock.commandCalls(QueryCommand)[0]!.args[0].input).toEqual({
      TableName: 'unit-table',
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': 'COMPANY#c1#EMAILS' },
      ScanIndexForward: false,
      // Everything the list shows and the position, never the mail's text.
      ProjectionExpression: '#a0, #a1, #a2, #a3, #a4, #a5, #a6, #a7, #a8, #a9, #a10, #a11, #a12, #a13',
      ExpressionAttributeNames: {
        '#a0': 'email_id', '#a1': 'company_id', '#a2': 'subject', '#a3': 'from', '#a4': 'address', '#a5': 'to_addresses', '#a6': 'arrived_at',
        '#a7': 'files', '#a8': 'rejected_files', '#a9': 'sender_refused', '#a10': 'receipt_type', '#a11': 'auth', '#a12': 'state', '#a13': 'gsi1sk',
      },
      Limit: 2,
    });
    expect(page.next).toBe('2026-11-21T08:00:00.000Z#E2');
    expect(page.items).toEqual([{ type: 'EMAIL', email_id: 'E2', company_id: 'c1' }]);
  });

  it('answers no next when the page is exactly full and nothing follows', async () => {
    ddbMock.on(QueryCommand).resolves({
      Items: [{ pk: 'EMAIL#E2', sk: 'META', gsi1pk: 'COMPANY#c1#EMAILS', gsi1sk: '2026-11-21T08:00:00.000Z#E2', email_id: 'E2' }],
      LastEvaluatedKey: undefined,
    });
    expect((await ddbEmailStore.listOfCompany('c1', { limit: 1 })).next).toBeNull();
  });

  it('reads on after a position in the caller company only, and answers no next at the end', async () => {
    ddbMock.on(QueryCommand).resolves({ Items: [] });
    const page = await ddbEmailStore.listOfCompany('c1', { after: '2026-11-21T08:00:00.000Z#E2', limit: 20 });
    expect(ddbMock.commandCalls(QueryCommand)[0]!.args[0].input.ExclusiveStartKey).toEqual({
      pk: 'EMAIL#E2',
      sk: 'META',
      gsi1pk: 'COMPANY#c1#EMAILS',
      gsi1sk: '2026-11-21T08:00:00.000Z#E2',
    });
    expect(page).toEqual({ items: [], next: null });
  });
});

describe('ddb email-in envelopes (E11, E12)', () => {
  it('keeps the envelope recipients by SES message id with an expiry, and reads them back consistently', async () => {
    ddbMock.on(PutCommand).resolves({});
    await ddbEmailStore.putEnvelope('ses-1', ['a@in.example', 'b@in.example'], 1_800_000_000);
    expect(ddbMock.commandCalls(PutCommand)[0]!.args[0].input).toEqual({
      TableName: 'unit-table',
      Item: { pk: 'SESMSG#ses-1', sk: 'ENVELOPE', type: 'EMAIL_ENVELOPE', recipients: ['a@in.example', 'b@in.example'], ttl: 1_800_000_000 },
    });
    ddbMock.on(GetCommand).resolvesOnce({ Item: { pk: 'SESMSG#ses-1', sk: 'ENVELOPE', recipients: ['a@in.example', 7] } }).resolvesOnce({});
    expect(await ddbEmailStore.envelope('ses-1')).toEqual(['a@in.example']);
    expect(await ddbEmailStore.envelope('ses-2')).toBeUndefined();
    expect(ddbMock.commandCalls(GetCommand).map((c) => [c.args[0].input.Key, c.args[0].input.ConsistentRead])).toEqual([
      [{ pk: 'SESMSG#ses-1', sk: 'ENVELOPE' }, true],
      [{ pk: 'SESMSG#ses-2', sk: 'ENVELOPE' }, true],
    ]);
  });
});
