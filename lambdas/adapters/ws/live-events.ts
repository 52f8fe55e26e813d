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

/** Live connections of a channel: Query gsi1 where gsi1pk = COMPANY#<id>#CONNS or USER#<id>#CONNS. */
async function connectionsOf(gsi1pk: string): Promise<string[]> {
  const items = await queryAll({
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk',
    FilterExpression: '#ttl > :now',
    ExpressionAttributeNames: { '#ttl': 'ttl' },
    ExpressionAttributeValues: { ':pk': gsi1pk, ':now': Math.floor(Date.now() / 1000) },
  });
  return items.map((i) => String(i.connection_id));
}

export const connectionsOfCompany = (companyId: string) => connectionsOf(keys.connectionOfCompanyIndex(companyId, '').gsi1pk);
export const connectionsOfUser = (userId: string) => connectionsOf(keys.connectionOfUserIndex(userId, '').gsi1pk);

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

async function broadcast(connections: string[], event: LiveEventName, payload: unknown) {
  await Promise.all(connections.map((id) => sendToConnection(id, { event, payload })));
}

export const wsLiveEvents: LiveEvents = {
  async publish(companyId, event, payload) {
    if (!managementClient()) return;
    await broadcast(await connectionsOfCompany(companyId), event, payload);
  },
  async publishToUser(userId, event, payload) {
    if (!managementClient()) return;
    await broadcast(await connectionsOfUser(userId), event, payload);
  },
};
