import { GetCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { ddbCompanyAdminStore } from '../../../lambdas/adapters/ddb/company-admin-store';
import { mockDocumentTable } from '../../support/ddb-mock';

const T = 'unit-table';
const ddbMock = mockDocumentTable(T);

describe('ddb company admin store: usage by month (P7) and the quota (P4)', () => {
  it('reads the usage items of the months asked for in one Query of the company partition, by month, with their quota', async () => {
    ddbMock.on(QueryCommand).resolves({
      Items: [
        { sk: 'USAGE#2026-02', used_documents: 40, duplicated_documents: 1, available_documents: 200 },
        { sk: 'USAGE#2026-11', used_documents: 3 },
      ],
    });
    const usage = await ddbCompanyAdminStore.listMonthUsage('C1', '2025-12', '2026-11');
    expect([...usage]).toEqual([
      ['2026-02', { used_documents: 40, duplicated_documents: 1, available_documents: 200 }],
      ['2026-11', { used_documents: 3, duplicated_documents: 0 }],
    ]);
    const calls = ddbMock.commandCalls(QueryCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.args[0].input).toEqual({
      TableName: T,
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
      ExpressionAttributeValues: { ':pk': 'COMPANY#C1', ':from': 'USAGE#2025-12', ':to': 'USAGE#2026-11' },
      ProjectionExpression: 'sk, used_documents, duplicated_documents, available_documents',
    });
  });

  it('sets the quota on the company and on the month’s usage item in one transaction, then reads the company back', async () => {
    ddbMock.on(TransactWriteCommand).resolves({});
    ddbMock.on(GetCommand).resolves({ Item: { pk: 'COMPANY#C1', sk: 'META', company_id: 'C1', available_documents: 40 } });
    const record = await ddbCompanyAdminStore.setAvailableDocuments('C1', 40, 500, '2026-11');
    expect(record).toMatchObject({ company_id: 'C1', available_documents: 40 });
    const calls = ddbMock.commandCalls(TransactWriteCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.args[0].input.TransactItems).toEqual([
      {
        Update: {
          TableName: T,
          Key: { pk: 'COMPANY#C1', sk: 'META' },
          UpdateExpression: 'SET available_documents = :available',
          ConditionExpression: 'attribute_exists(pk) AND available_documents = :expected',
          ExpressionAttributeValues: { ':available': 40, ':expected': 500 },
        },
      },
      {
        // SET only: the month's counters (and quota_taken = used + reserved) are not touched, a new item has none
        Update: {
          TableName: T,
          Key: { pk: 'COMPANY#C1', sk: 'USAGE#2026-11' },
          UpdateExpression: 'SET available_documents = :available',
          ExpressionAttributeValues: { ':available': 40 },
        },
      },
    ]);
    expect(ddbMock.commandCalls(GetCommand)[0]!.args[0].input).toEqual({ TableName: T, Key: { pk: 'COMPANY#C1', sk: 'META' }, ConsistentRead: true });
  });

  it('without an expected quota only the company must exist; a failed condition writes nothing and answers undefined', async () => {
    const cancelled = Object.assign(new Error('Transaction cancelled'), {
      name: 'TransactionCanceledException',
      CancellationReasons: [{ Code: 'ConditionalCheckFailed' }, { Code: 'None' }],
    });
    ddbMock.on(TransactWriteCommand).rejects(cancelled);
    expect(await ddbCompanyAdminStore.setAvailableDocuments('C1', 40, undefined, '2026-11')).toBeUndefined();
    const sent = ddbMock.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems![0]!.Update!;
    expect(sent.ConditionExpression).toBe('attribute_exists(pk)');
    expect(sent.ExpressionAttributeValues).toEqual({ ':available': 40 });
    expect(ddbMock.commandCalls(GetCommand)).toHaveLength(0);
  });
});
