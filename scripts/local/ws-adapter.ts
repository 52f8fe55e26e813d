import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { websocketRoutes } from '../../shared/routes';
import { CONNECTION_TTL_SECONDS } from '../../lambdas/core/live/connections';
import type { WsEvent, WsResult } from '../../lambdas/ws/event';
import { loadHandler } from './api-adapter';
import { verifySigV4, type LocalCredentials } from './sigv4';

type WsHandler = (event: WsEvent) => Promise<WsResult>;

function handlerFor(routeKey: '$connect' | '$disconnect' | '$default'): Promise<WsHandler> {
  const route = websocketRoutes.find((r) => r.routeKey === routeKey)!;
  return loadHandler<WsHandler>(route.handler);
}

/**
 * The local API Gateway WebSocket API: calls the same $connect/$disconnect/$default handlers,
 * and serves the @connections management API that @aws-sdk/client-apigatewaymanagementapi calls. Like API
 * Gateway it closes a connection after two hours (its maximum connection duration, which the subscriptions'
 * expiry follows): a connection kept longer would stay open and receive nothing, while a closed one makes the
 * screen connect again and subscribe anew.
 */
export class LocalWebSocketGateway {
  private readonly wss = new WebSocketServer({ noServer: true });
  private readonly sockets = new Map<string, WebSocket>();

  /**
   * @connections calls must be signed with local mode's credentials, as the real management API requires IAM.
   * `maxConnectionMs`: how long a connection may stay open (tests shorten it).
   */
  constructor(
    private readonly credentials: LocalCredentials,
    private readonly maxConnectionMs = CONNECTION_TTL_SECONDS * 1000,
  ) {}

  async handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://local');
    const connectionId = randomBytes(12).toString('base64url');
    const query = Object.fromEntries(url.searchParams);
    const connect = await handlerFor('$connect');
    const result = await connect({
      requestContext: { connectionId, routeKey: '$connect', eventType: 'CONNECT' },
      queryStringParameters: query,
    }).catch(() => ({ statusCode: 500 }));
    if (result.statusCode !== 200) {
      socket.write(`HTTP/1.1 ${result.statusCode} Refused\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
      socket.destroy();
      return;
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      this.sockets.set(connectionId, ws);
      // 1001 "Going Away", as API Gateway ends a connection at its maximum duration
      const expiry = setTimeout(() => ws.close(1001, 'Going away'), this.maxConnectionMs);
      expiry.unref();
      ws.on('message', async (data) => {
        const handler = await handlerFor('$default');
        await handler({
          requestContext: { connectionId, routeKey: '$default', eventType: 'MESSAGE' },
          body: data.toString(),
        }).catch((error: unknown) => console.error('[ws] $default failed', error));
      });
      ws.on('close', async () => {
        clearTimeout(expiry);
        this.sockets.delete(connectionId);
        const handler = await handlerFor('$disconnect');
        await handler({ requestContext: { connectionId, routeKey: '$disconnect', eventType: 'DISCONNECT' } }).catch(
          (error: unknown) => console.error('[ws] $disconnect failed', error),
        );
      });
    });
  }

  /** POST/GET/DELETE {prefix}/@connections/{id} */
  async handleManagement(req: IncomingMessage, res: ServerResponse, prefix: string): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    // The signature covers the path as the client sent it (with the /_ws prefix the SDK's endpoint carries).
    const verdict = await verifySigV4(req, body, this.credentials);
    if (!verdict.ok) {
      res.writeHead(403, { 'content-type': 'application/json', 'x-amzn-errortype': verdict.error === 'MissingAuthenticationToken' ? 'MissingAuthenticationTokenException' : 'ForbiddenException' });
      res.end(JSON.stringify({ message: verdict.message }));
      return;
    }
    let pathname: string;
    try {
      pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://local').pathname.slice(prefix.length));
    } catch {
      res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ message: 'Malformed path' }));
      return;
    }
    const m = /^\/@connections\/(.+)$/.exec(pathname);
    const ws = m ? this.sockets.get(m[1]!) : undefined;
    if (!m || !ws) {
      res.writeHead(410, { 'content-type': 'application/json', 'x-amzn-errortype': 'GoneException' });
      res.end(JSON.stringify({ message: 'Gone' }));
      return;
    }
    if (req.method === 'POST') {
      ws.send(body.toString('utf8'));
      res.writeHead(200).end();
    } else if (req.method === 'DELETE') {
      ws.close();
      res.writeHead(204).end();
    } else {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ConnectedAt: new Date().toISOString() }));
    }
  }

  close(): void {
    for (const ws of this.sockets.values()) ws.terminate();
    this.wss.close();
  }
}
