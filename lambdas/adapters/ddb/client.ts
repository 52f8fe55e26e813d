import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { retryTransactionConflicts } from './transaction-retry';

/**
 * One document client per process. The endpoint comes from the SDK's own configuration
 * (AWS_ENDPOINT_URL_DYNAMODB in local mode), so the code is the same in both modes.
 */
let client: DynamoDBDocumentClient | undefined;
export function ddb(): DynamoDBDocumentClient {
  if (!client) {
    const base = new DynamoDBClient({});
    // Transactions cancelled by concurrent ones (TransactionConflict) are sent again (transaction-retry.ts).
    retryTransactionConflicts(base);
    client = DynamoDBDocumentClient.from(base, {
      marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
    });
  }
  return client;
}
/** Local mode and tests change the endpoint between runs. */
export function resetDdbClient(): void {
  client?.destroy();
  client = undefined;
}
