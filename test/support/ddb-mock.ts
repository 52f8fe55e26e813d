/**
 * The DynamoDB document client mocked for a unit test of a store (aws-sdk-client-mock): the table name set, the
 * cached environment and client dropped, and the mock reset around each test.
 */
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach } from 'vitest';
import { resetDdbClient } from '../../lambdas/adapters/ddb/client';
import { resetEnvCache } from '../../lambdas/runtime/env';

export function mockDocumentTable(tableName = 'unit-table') {
  const ddbMock = mockClient(DynamoDBDocumentClient);
  beforeEach(() => {
    process.env.TABLE_NAME = tableName;
    resetEnvCache();
    resetDdbClient();
    ddbMock.reset();
  });
  afterEach(() => ddbMock.reset());
  return ddbMock;
}
