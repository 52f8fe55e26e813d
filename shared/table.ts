/**
 * The single DynamoDB table's shape, shared by the CDK stack and local mode.
 * Key values are built only in lambdas/adapters/ddb/keys.ts.
 */
export const TABLE_KEYS = { partitionKey: 'pk', sortKey: 'sk' } as const;
export const TTL_ATTRIBUTE = 'ttl';

export const GLOBAL_INDEXES = [
  { indexName: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' },
  { indexName: 'gsi2', partitionKey: 'gsi2pk', sortKey: 'gsi2sk' },
  { indexName: 'gsi3', partitionKey: 'gsi3pk', sortKey: 'gsi3sk' },
] as const;

export type GlobalIndexName = (typeof GLOBAL_INDEXES)[number]['indexName'];
