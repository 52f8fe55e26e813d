/**
 * The export job: SQS export queue → this Lambda, one message per document and target
 * (lambdas/core/integrations/export.ts). A message is acknowledged once its outcome is recorded (delivered,
 * re-queued with a delay, or written as a visible error); only a failure to record anything is reported back
 * as a batch item failure, so SQS delivers it again (and to the dead-letter queue in the end).
 */
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { ddbIntegrationStore } from '../adapters/ddb/integrations-store';
import { ftpFileDrop } from '../adapters/ftp/file-drop';
import { rivileClient } from '../adapters/rivile/client';
import { secretBox } from '../adapters/secrets';
import { sqsExportQueue } from '../adapters/sqs/export-queue';
import { runExport } from '../core/integrations/export';
import type { ExportMessage } from '../core/integrations/ports';
import { isExportTarget } from '../../shared/schemas/integrations';
import { depsFor } from '../runtime/deps';
import { env } from '../runtime/env';
import { createLogger } from '../runtime/logger';

const rivile = rivileClient();

function parse(body: string): ExportMessage | undefined {
  try {
    const m = JSON.parse(body) as Partial<ExportMessage>;
    if (typeof m.receipt_id !== 'string' || typeof m.company_id !== 'string' || typeof m.target !== 'string' || !isExportTarget(m.target)) return undefined;
    return { receipt_id: m.receipt_id, company_id: m.company_id, target: m.target, attempt: Number(m.attempt) || 1, requested_by: String(m.requested_by ?? ''), requested_at: String(m.requested_at ?? '') };
  } catch {
    return undefined;
  }
}

export async function handler(event: SQSEvent): Promise<SQSBatchResponse> {
  const d = depsFor('jobs/export-document');
  const e = env();
  const failures: SQSBatchResponse['batchItemFailures'] = [];
  for (const record of event.Records) {
    const log = createLogger({ job: 'export-document', messageId: record.messageId });
    const msg = parse(record.body);
    if (!msg) {
      log.warn('export message dropped: not an export message');
      continue;
    }
    try {
      await runExport(
        {
          documents: d.documents,
          files: d.files,
          store: d.store,
          live: d.live,
          clock: d.clock,
          ids: d.ids,
          integrations: ddbIntegrationStore,
          secrets: secretBox(),
          fileDrop: ftpFileDrop,
          rivile,
          queue: sqsExportQueue,
          retry: { maxAttempts: e.EXPORT_MAX_ATTEMPTS, baseSeconds: e.EXPORT_RETRY_BASE_SECONDS },
        },
        msg,
        log,
      );
    } catch (error) {
      log.error('export job failed', { receipt_id: msg.receipt_id, target: msg.target, error: error instanceof Error ? error.message : String(error) });
      failures.push({ itemIdentifier: record.messageId });
    }
  }
  return { batchItemFailures: failures };
}
