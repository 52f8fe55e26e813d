/**
 * A stand-in of Lambda's Invoke API (POST /2015-03-31/functions/{name}/invocations, RequestResponse) for the
 * integration tests of code that invokes another function (the processing job → the office converter): the named
 * function's real handler runs in this process and its answer, or its error as Lambda reports an unhandled one
 * (`X-Amz-Function-Error: Unhandled`), goes back to the SDK. Point the SDK at it with AWS_ENDPOINT_URL_LAMBDA.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LambdaStandIn {
  url: string;
  /** Every invocation: the function name and the event. */
  invocations: Array<{ functionName: string; event: unknown }>;
  /** The next invocations fail like a function that crashed or timed out, with this error (until cleared). */
  failWith?: { errorType: string; errorMessage: string };
  close(): Promise<void>;
}

export async function startLambdaStandIn(functions: Record<string, (event: unknown) => Promise<unknown>>): Promise<LambdaStandIn> {
  const standIn: LambdaStandIn = { url: '', invocations: [], close: async () => undefined };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const match = /^\/2015-03-31\/functions\/([^/]+)\/invocations$/.exec(req.url?.split('?')[0] ?? '');
        const functionName = match ? decodeURIComponent(match[1]!) : '';
        const fn = functions[functionName];
        if (req.method !== 'POST' || !fn) {
          res.writeHead(404, { 'content-type': 'application/json', 'x-amzn-errortype': 'ResourceNotFoundException' });
          res.end(JSON.stringify({ Type: 'User', message: `Function not found: ${functionName}` }));
          return;
        }
        const event = JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null') as unknown;
        standIn.invocations.push({ functionName, event });
        let status: Record<string, string> = {};
        let payload: unknown;
        try {
          if (standIn.failWith) throw Object.assign(new Error(standIn.failWith.errorMessage), { name: standIn.failWith.errorType });
          payload = await fn(event);
        } catch (error) {
          const e = error as Error;
          status = { 'x-amz-function-error': 'Unhandled' };
          payload = { errorType: e.name, errorMessage: e.message };
        }
        res.writeHead(200, { 'content-type': 'application/json', 'x-amz-executed-version': '$LATEST', ...status });
        res.end(JSON.stringify(payload ?? null));
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  standIn.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  standIn.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return standIn;
}
