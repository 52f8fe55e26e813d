import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

/**
 * One document client per process. The endpoint comes from the SDK's own configuration
 * (AWS_ENDPOINT_URL_DYNAMODB in local mode), so the code is the same in both modes.
 */
let client: DynamoDBDocumentClient | undefined;
export function ddb(): DynamoDBDocumentClient {
  client ??= DynamoDBDocumentClient.from(new DynamoDBClient({}), {
    marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
  });
  return client;
}
/** Local mode and tests change the endpoint between runs. */
export function resetDdbClient(): void {
  client?.destroy();
  client = undefined;
}
