/**
 * Local stand-in for the SQS API the handlers call (JSON protocol: SendMessage and SendMessageBatch), served by
 * the local stack under /_sqs (AWS_ENDPOINT_URL_SQS). Queue URLs are `<endpoint>/<queue name>`; each name maps
 * to a local job queue (scripts/local/jobs.ts) that hands the messages to the real job handler.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { LocalJobQueue } from './jobs';

const md5 = (s: string) => createHash('md5').update(s, 'utf8').digest('hex');

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export function localSqs(queues: Record<string, LocalJobQueue>) {
  const queueOf = (url: unknown) => {
    const name = String(url ?? '').split('/').pop() ?? '';
    return queues[name];
  };
  return async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const target = String(req.headers['x-amz-target'] ?? '');
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/x-amz-json-1.0' });
      res.end(JSON.stringify(body));
    };
    let input: Record<string, unknown>;
    try {
      input = JSON.parse((await readBody(req)) || '{}');
    } catch {
      return send(400, { __type: 'com.amazonaws.sqs#InvalidParameterValue', message: 'Malformed JSON' });
    }
    const queue = queueOf(input.QueueUrl);
    if (!queue) return send(400, { __type: 'com.amazonaws.sqs#QueueDoesNotExist', message: 'The specified queue does not exist.' });
    if (target === 'AmazonSQS.SendMessage') {
      const body = String(input.MessageBody ?? '');
      queue.send(body, Number(input.DelaySeconds ?? 0));
      return send(200, { MessageId: randomUUID(), MD5OfMessageBody: md5(body) });
    }
    if (target === 'AmazonSQS.SendMessageBatch') {
      const entries = (input.Entries as { Id: string; MessageBody: string; DelaySeconds?: number }[]) ?? [];
      for (const e of entries) queue.send(e.MessageBody, Number(e.DelaySeconds ?? 0));
      return send(200, { Successful: entries.map((e) => ({ Id: e.Id, MessageId: randomUUID(), MD5OfMessageBody: md5(e.MessageBody) })), Failed: [] });
    }
    return send(400, { __type: 'com.amazonaws.sqs#UnsupportedOperation', message: `${target} is not offered locally` });
  };
}
