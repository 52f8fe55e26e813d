import {
  ApiGatewayManagementApiClient,
  GoneException,
  PostToConnectionCommand,
} from '@aws-sdk/client-apigatewaymanagementapi';
import type { LiveEventName, LiveEvents } from '../../core/ports';
import { env } from '../../runtime/env';
import { ddbConnectionStore } from '../ddb/connection-store';
import { keys } from '../ddb/keys';
import { queryAll } from '../ddb/table-ops';

let client: ApiGatewayManagementApiClient | undefined;
function managementClient(): ApiGatewayManagementApiClient | undefined {
  const endpoint = env().WS_CALLBACK_URL;
  if (!endpoint) return undefined;
  client ??= new ApiGatewayManagementApiClient({ endpoint });
  return client;
}
export function resetLiveEventsClient(): void {
  client?.destroy();
  client = undefined;
}

/** Connections of a company: Query gsi1 where gsi1pk = COMPANY#<id>#CONNS. */
export async function connectionsOfCompany(companyId: string): Promise<string[]> {
  const items = await queryAll({
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk',
    FilterExpression: '#ttl > :now',
    ExpressionAttributeNames: { '#ttl': 'ttl' },
    ExpressionAttributeValues: {
      ':pk': keys.connectionOfCompanyIndex(companyId, '').gsi1pk,
      ':now': Math.floor(Date.now() / 1000),
    },
  });
  return items.map((i) => String(i.connection_id));
}

export async function sendToConnection(connectionId: string, message: unknown): Promise<boolean> {
  const api = managementClient();
  if (!api) return false;
  try {
    await api.send(
      new PostToConnectionCommand({ ConnectionId: connectionId, Data: new TextEncoder().encode(JSON.stringify(message)) }),
    );
    return true;
  } catch (error) {
    if (error instanceof GoneException || (error as { name?: string }).name === 'GoneException') {
      await ddbConnectionStore.remove(connectionId);
      return false;
    }
    throw error;
  }
}

export const wsLiveEvents: LiveEvents = {
  async publish(companyId: string, event: LiveEventName, payload: unknown) {
    if (!managementClient()) return;
    const connections = await connectionsOfCompany(companyId);
    await Promise.all(connections.map((id) => sendToConnection(id, { event, payload })));
  },
};
