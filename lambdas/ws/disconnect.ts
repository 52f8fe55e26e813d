import { ddbConnectionStore } from '../adapters/ddb/connection-store';
import type { WsEvent, WsResult } from './event';

export async function handler(event: WsEvent): Promise<WsResult> {
  await ddbConnectionStore.remove(event.requestContext.connectionId);
  return { statusCode: 200 };
}
