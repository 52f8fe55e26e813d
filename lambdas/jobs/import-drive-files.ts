/**
 * The Google Drive and Dropbox import job: run by an EventBridge schedule in AWS (infra/constructs/drive-import-schedule.ts)
 * and by a timer in local mode (scripts/local/drive-schedule.ts). Each tick reads every watched folder's changes and
 * turns new files into documents (lambdas/core/drive-import/run.ts); running twice at once or after a crash creates
 * nothing twice.
 */
import { driveDeps } from '../adapters/drive/deps';
import { runDriveImports, type DriveRunDeps, type RunOutcome } from '../core/drive-import/run';
import { depsFor } from '../runtime/deps';
import { createLogger } from '../runtime/logger';

export function driveRunDeps(): DriveRunDeps {
  const d = depsFor('jobs/import-drive-files');
  const log = createLogger({ job: 'import-drive-files' });
  return { ...driveDeps(d, log), documents: d.documents, files: d.files, log };
}

export async function handler(): Promise<{ imports: number; imported: number; outcomes: RunOutcome[] }> {
  const outcomes = await runDriveImports(driveRunDeps());
  return { imports: outcomes.length, imported: outcomes.reduce((n, o) => n + o.imported, 0), outcomes };
}
