import { AppError } from '../../shared/errors';
import { verifyAccessToken } from '../adapters/cognito/verify-token';
import { ddbConnectionStore } from '../adapters/ddb/connection-store';
import { companiesToFollow, connectionTimes } from '../core/live/connections';
import { deps } from '../runtime/deps';
import { createLogger } from '../runtime/logger';
import type { WsEvent, WsResult } from './event';

/** $connect: ?token=<access token>&company_id=<id|ALL>. Refused unless the token is valid and the user a member. */
export async function handler(event: WsEvent): Promise<WsResult> {
  const log = createLogger({ route: '$connect', connectionId: event.requestContext.connectionId });
  const token = event.queryStringParameters?.token;
  const companyId = event.queryStringParameters?.company_id ?? 'ALL';
  try {
    if (!token) throw new AppError('Unauthorized', 'Not signed in');
    const claims = await verifyAccessToken(token);
    const companyIds = await companiesToFollow(deps().store, claims.sub, companyId);
    // Events until the token expires (renewed by the screen's fresher tokens), at most the connection's two hours.
    const times = connectionTimes(Math.floor(Date.now() / 1000), Number(claims.exp));
    await ddbConnectionStore.subscribe(event.requestContext.connectionId, claims.sub, companyIds, times);
    return { statusCode: 200 };
  } catch (error) {
    const status = error instanceof AppError ? error.statusCode : 500;
    log.warn('connection refused', { status, error: error instanceof Error ? error.message : String(error) });
    return { statusCode: status };
  }
}
