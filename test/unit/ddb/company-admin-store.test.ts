import { DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resetDdbClient } from '../../../lambdas/adapters/ddb/client';
import { ddbCompanyAdminStore } from '../../../lambdas/adapters/ddb/company-admin-store';
import { resetEnvCache } from '../../../lambdas/runtime/env';

const ddbMock = mockClient(DynamoDBDocumentClient);
const T = 'unit-table';

describe('ddb company admin store: usage by month (P7)', () => {
  beforeEach(() => {
    process.env.TABLE_NAME = T;
    resetEnvCache();
    resetDdbClient();
    ddbMock.reset();
  });
  afterEach(() => ddbMock.reset());

  it('reads the usage items of the months asked for in one Query of the company partition, by month', async () => {
    ddbMock.on(QueryCommand).resolves({
      Items: [
        { sk: 'USAGE#2026-02', used_documents: 40, duplicated_documents: 1 },
        { sk: 'USAGE#2026-11', used_documents: 3 },
      ],
    });
    const usage = await ddbCompanyAdminStore.listMonthUsage('C1', '2025-12', '2026-11');
    expect([...usage]).toEqual([
      ['2026-02', { used_documents: 40, duplicated_documents: 1 }],
      ['2026-11', { used_documents: 3, duplicated_documents: 0 }],
    ]);
    const calls = ddbMock.commandCalls(QueryCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.args[0].input).toEqual({
      TableName: T,
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
      ExpressionAttributeValues: { ':pk': 'COMPANY#C1', ':from': 'USAGE#2025-12', ':to': 'USAGE#2026-11' },
      ProjectionExpression: 'sk, used_documents, duplicated_documents',
    });
  });
});
