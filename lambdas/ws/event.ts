/** The parts of API Gateway's WebSocket event the handlers read (the same shape locally). */
export interface WsEvent {
  requestContext: { connectionId: string; routeKey: string; requestId?: string; eventType?: string };
  queryStringParameters?: Record<string, string | undefined> | null;
  body?: string | null;
}
export interface WsResult {
  statusCode: number;
  body?: string;
}
