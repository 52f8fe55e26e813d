import { z } from 'zod';
import { ddbConnectionStore } from '../adapters/ddb/connection-store';
import { sendToConnection } from '../adapters/ws/live-events';
import { CONNECTION_TTL_SECONDS, companiesToFollow } from '../core/live/connections';
import { deps } from '../runtime/deps';
import { createLogger } from '../runtime/logger';
import type { WsEvent, WsResult } from './event';

const messageSchema = z.discriminatedUnion('event', [
  z.object({ event: z.literal('company'), payload: z.object({ company_id: z.string().min(1) }) }),
  z.object({ event: z.literal('ping'), payload: z.unknown().optional() }),
]);

/**
 * $default: the client switches the followed company with {event:'company', payload:{company_id}}
 * and keeps the connection alive with {event:'ping'} every 300000 ms.
 */
export async function handler(event: WsEvent): Promise<WsResult> {
  const connectionId = event.requestContext.connectionId;
  const log = createLogger({ route: '$default', connectionId });
  let message: z.infer<typeof messageSchema>;
  try {
    message = messageSchema.parse(JSON.parse(event.body ?? ''));
  } catch {
    await sendToConnection(connectionId, { event: 'error', payload: { message: 'Unknown message' } });
    return { statusCode: 400 };
  }
  if (message.event === 'ping') {
    await sendToConnection(connectionId, { event: 'pong' });
    return { statusCode: 200 };
  }
  const userId = await ddbConnectionStore.owner(connectionId);
  if (!userId) return { statusCode: 410 };
  try {
    const companyIds = await companiesToFollow(deps().store, userId, message.payload.company_id);
    await ddbConnectionStore.subscribe(connectionId, userId, companyIds, Math.floor(Date.now() / 1000) + CONNECTION_TTL_SECONDS);
    await sendToConnection(connectionId, { event: 'subscribed', payload: { company_id: message.payload.company_id, following: companyIds } });
    return { statusCode: 200 };
  } catch (error) {
    log.warn('company switch refused', { error: error instanceof Error ? error.message : String(error) });
    await sendToConnection(connectionId, { event: 'error', payload: { message: 'You are not a member of this company' } });
    return { statusCode: 403 };
  }
}
