import { z } from 'zod';
import { AppError } from '../../shared/errors';
import { verifyAccessToken } from '../adapters/cognito/verify-token';
import { ddbConnectionStore } from '../adapters/ddb/connection-store';
import { sendToConnection } from '../adapters/ws/live-events';
import { companiesToFollow, renewConnection } from '../core/live/connections';
import { deps } from '../runtime/deps';
import { createLogger } from '../runtime/logger';
import type { WsEvent, WsResult } from './event';

const messageSchema = z.discriminatedUnion('event', [
  z.object({ event: z.literal('company'), payload: z.object({ company_id: z.string().min(1) }) }),
  z.object({ event: z.literal('ping'), payload: z.unknown().optional() }),
  z.object({ event: z.literal('token'), payload: z.object({ token: z.string().min(1).max(8192) }) }),
]);

/**
 * $default: the client switches the followed company with {event:'company', payload:{company_id}}, keeps the
 * connection alive with {event:'ping'} every 300000 ms, and sends its access token again whenever it was refreshed
 * with {event:'token', payload:{token}} (answered {event:'token', payload:{lapsed}}): the subscriptions get events
 * only until the token they were last given expires (core/live/connections.ts subscribedUntil).
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
  if (message.event === 'token') {
    try {
      const claims = await verifyAccessToken(message.payload.token);
      const renewed = await renewConnection(ddbConnectionStore, connectionId, { sub: claims.sub, exp: Number(claims.exp) }, Math.floor(Date.now() / 1000));
      await sendToConnection(connectionId, { event: 'token', payload: renewed });
      return { statusCode: 200 };
    } catch (error) {
      const status = error instanceof AppError ? error.statusCode : 500;
      log.warn('token refused', { status, error: error instanceof Error ? error.message : String(error) });
      await sendToConnection(connectionId, { event: 'error', payload: { message: status === 403 ? 'The token is of another user' : 'Not signed in' } });
      return { statusCode: status };
    }
  }
  const connection = await ddbConnectionStore.connection(connectionId);
  if (!connection) return { statusCode: 410 };
  const { userId } = connection;
  try {
    const companyIds = await companiesToFollow(deps().store, userId, message.payload.company_id);
    // The switch keeps the connection's times: the token it was last given still bounds the new subscriptions.
    await ddbConnectionStore.subscribe(connectionId, userId, companyIds, { closesAt: connection.closesAt, subscribedUntil: connection.subscribedUntil });
    await sendToConnection(connectionId, { event: 'subscribed', payload: { company_id: message.payload.company_id, following: companyIds } });
    return { statusCode: 200 };
  } catch (error) {
    log.warn('company switch refused', { error: error instanceof Error ? error.message : String(error) });
    await sendToConnection(connectionId, { event: 'error', payload: { message: 'You are not a member of this company' } });
    return { statusCode: 403 };
  }
}
