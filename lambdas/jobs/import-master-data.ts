/**
 * The master-data import job: SQS messages whose bodies are S3 object-created notifications of imports/…
 * (workbooks uploaded through GET /upload/import). Failed messages are reported as partial batch failures
 * and retried; the import resumes after its last stored chunk. On the last delivery (ApproximateReceiveCount
 * ≥ IMPORT_MAX_RECEIVES, the queue's maxReceiveCount) a failure ends the import with a message instead.
 */
import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { IMPORT_MAX_RECEIVES, runImport, type ImportJobDeps } from '../core/master-data/import/service';
import { depsFor } from '../runtime/deps';
import { createLogger } from '../runtime/logger';
import { forEachCreatedObject } from '../runtime/s3-notifications';

export { IMPORT_MAX_RECEIVES };

export function importJobDeps(): ImportJobDeps {
  const d = depsFor('jobs/import-master-data');
  const log = createLogger({ job: 'import-master-data' });
  return {
    imports: d.imports,
    masterData: d.masterData,
    files: d.files,
    clock: d.clock,
    ids: d.ids,
    log,
    // The lists of the company reload once the import has changed them.
    onChanged: async (companyId, type, importId) => {
      const kind = type === 'categories' ? 'category' : type === 'items' ? 'item' : 'stakeholder';
      const payload = kind === 'stakeholder' ? { kind, type: type === 'suppliers' ? 'supplier' : 'customer', id: importId } : { kind, id: importId };
      await d.live.publish(companyId, 'master-data', payload).catch((error: unknown) =>
        log.warn('live event failed', { error: error instanceof Error ? error.message : String(error) }),
      );
    },
  };
}

export async function handler(event: SQSEvent, context?: Pick<Context, 'getRemainingTimeInMillis'>): Promise<SQSBatchResponse> {
  const d = importJobDeps();
  return forEachCreatedObject(event, createLogger({ job: 'import-master-data' }), (key, { receiveCount }) =>
    runImport(d, key, {
      final: receiveCount >= IMPORT_MAX_RECEIVES,
      remainingMs: context?.getRemainingTimeInMillis ? () => context.getRemainingTimeInMillis() : undefined,
    }),
  );
}
