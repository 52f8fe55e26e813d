import {
  ApiGatewayManagementApiClient,
  GoneException,
  PostToConnectionCommand,
} from '@aws-sdk/client-apigatewaymanagementapi';
import { connectionsOfMembers, type CompanySubscription } from '../../core/live/connections';
import { broadcastPayload } from '../../core/live/company-event';
import type { LiveEventName, LiveEvents } from '../../core/ports';
import { env } from '../../runtime/env';
import { createLogger } from '../../runtime/logger';
import { ddbConnectionStore } from '../ddb/connection-store';
import { keys } from '../ddb/keys';
import { batchGet, queryAll } from '../ddb/table-ops';

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

/** Live subscriptions of a channel: Query gsi1 where gsi1pk = COMPANY#<id>#CONNS (A10) or USER#<id>#CONNS (A12). */
async function subscriptionsOf(gsi1pk: string): Promise<CompanySubscription[]> {
  const items = await queryAll({
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk',
    FilterExpression: '#ttl > :now',
    ExpressionAttributeNames: { '#ttl': 'ttl' },
    ExpressionAttributeValues: { ':pk': gsi1pk, ':now': Math.floor(Date.now() / 1000) },
  });
  return items.map((i) => ({ connection_id: String(i.connection_id), user_id: String(i.user_id) }));
}

/** Which of these users are members of the company now: one consistent BatchGetItem of their memberships (A15). */
async function membersAmong(companyId: string, userIds: string[]): Promise<Set<string>> {
  if (userIds.length === 0) return new Set();
  const items = await batchGet(userIds.map((id) => keys.membership(id, companyId)), { consistent: true });
  return new Set(items.map((i) => String(i.user_id)));
}

/** The connections a company event goes to: its subscriptions (A10) whose user is still a member (A15). */
export async function connectionsOfCompany(companyId: string): Promise<string[]> {
  const subscriptions = await subscriptionsOf(keys.connectionOfCompanyIndex(companyId, '').gsi1pk);
  if (subscriptions.length === 0) return [];
  const users = [...new Set(subscriptions.map((s) => s.user_id))];
  return connectionsOfMembers(subscriptions, await membersAmong(companyId, users));
}
export const connectionsOfUser = async (userId: string) =>
  (await subscriptionsOf(keys.connectionOfUserIndex(userId, '').gsi1pk)).map((s) => s.connection_id);

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

/**
 * Live events are told after the change they report has committed: a send or a look-up that fails (a throttled
 * management API, a throttled index) is logged and the connection misses the event, as an offline tab does — the
 * screens read again on focus and on reconnect. It never turns an action that was made into an error.
 */
const log = createLogger({ adapter: 'live-events' });

async function bestEffort(what: string, context: Record<string, unknown>, send: () => Promise<unknown>): Promise<void> {
  try {
    await send();
  } catch (error) {
    log.warn('a live event was not sent', { what, ...context, error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) });
  }
}

/** One message to one connection, without failing the others (true: sent; false: gone or failed). */
async function sendOrLog(connectionId: string, message: { event: unknown; payload?: unknown }): Promise<boolean> {
  try {
    return await sendToConnection(connectionId, message);
  } catch (error) {
    log.warn('a live event was not sent', { what: 'send', connection_id: connectionId, event: message.event, error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) });
    return false;
  }
}

async function broadcast(connections: string[], event: LiveEventName, payload: unknown) {
  await Promise.all(connections.map((id) => sendOrLog(id, { event, payload })));
}

/** Messages of one publishAll sent to one connection at a time. */
const SENDS_PER_CONNECTION = 8;

/** Sends the messages to the connection, a few at a time; after a GoneException (connection removed) or a failed send, no more. */
async function sendAll(connectionId: string, messages: { event: unknown; payload?: unknown }[]): Promise<void> {
  let next = 0;
  let gone = false;
  const worker = async () => {
    while (!gone && next < messages.length) {
      if (!(await sendOrLog(connectionId, messages[next++]!))) gone = true;
    }
  };
  await Promise.all(Array.from({ length: Math.min(SENDS_PER_CONNECTION, messages.length) }, worker));
}

export const wsLiveEvents: LiveEvents = {
  async publishAll(events) {
    if (!managementClient() || events.length === 0) return;
    const channels = new Map<string, { connections: () => Promise<string[]>; messages: { event: unknown; payload?: unknown }[] }>();
    for (const e of events) {
      const company = 'companyId' in e;
      const key = company ? `C|${e.companyId}` : `U|${e.userId}`;
      let channel = channels.get(key);
      if (!channel) {
        channel = { connections: company ? () => connectionsOfCompany(e.companyId) : () => connectionsOfUser(e.userId), messages: [] };
        channels.set(key, channel);
      }
      channel.messages.push({ event: e.event, payload: company ? broadcastPayload(e.event, e.payload) : e.payload });
    }
    await Promise.all(
      [...channels.entries()].map(([channel, { connections, messages }]) =>
        bestEffort('look-up', { channel, events: messages.length }, async () => Promise.all((await connections()).map((id) => sendAll(id, messages)))),
      ),
    );
  },
  async publish(companyId, event, payload) {
    if (!managementClient()) return;
    // Company-wide: a company payload never carries a member's own fields (core/live/company-event.ts).
    await bestEffort('look-up', { company_id: companyId, event }, async () => broadcast(await connectionsOfCompany(companyId), event, broadcastPayload(event, payload)));
  },
  async publishToUser(userId, event, payload) {
    if (!managementClient()) return;
    await bestEffort('look-up', { user_id: userId, event }, async () => broadcast(await connectionsOfUser(userId), event, payload));
  },
};
