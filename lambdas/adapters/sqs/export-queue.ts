/**
 * The export queue (SQS; local mode answers the same SendMessage calls, scripts/local/sqs.ts). A delay is
 * SQS's DelaySeconds (at most 900 s): the export job's backoff between attempts.
 */
import { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { ExportQueue } from '../../core/integrations/ports';
import { env } from '../../runtime/env';

let client: SQSClient | undefined;
/** One SQS client per process, for every queue the handlers send to (export, company purge). */
export const sqsClient = () => (client ??= new SQSClient({}));
const sqs = sqsClient;
/** Local mode and tests change the endpoint between runs. */
export function resetSqsClient(): void {
  client?.destroy();
  client = undefined;
}

export const sqsExportQueue: ExportQueue = {
  async send(messages, delaySeconds = 0) {
    const url = env().EXPORT_QUEUE_URL;
    if (!url) throw new Error('EXPORT_QUEUE_URL is not set');
    for (let i = 0; i < messages.length; i += 10) {
      const batch = messages.slice(i, i + 10);
      const res = await sqs().send(
        new SendMessageBatchCommand({
          QueueUrl: url,
          Entries: batch.map((m, n) => ({ Id: String(n), MessageBody: JSON.stringify(m), DelaySeconds: Math.min(900, Math.max(0, Math.round(delaySeconds))) })),
        }),
      );
      if (res.Failed?.length) throw new Error(`the export queue refused ${res.Failed.length} message(s): ${res.Failed.map((f) => f.Code).join(', ')}`);
    }
  },
};
