import type { ReactNode } from 'react';
import type { ImportStatusView, SyncCounts, SyncKind, SyncRunView } from '../../../../../shared/schemas/master-data-sync';
import { Button } from '../../../components/ui/Button';
import { formatDateTime } from '../../../lib/format';
import { lastErrorIsPast } from '../lib/outcomes';

const KIND_LABEL: Record<SyncKind, string> = { suppliers: 'Suppliers', customers: 'Customers', categories: 'Categories', items: 'Items' };
const OUTCOME_LABEL: Record<SyncRunView['outcome'], string> = {
  running: 'Running',
  done: 'Done',
  partial: 'Stopped for now; the next run continues',
  failed: 'Failed',
};

const when = (iso: string | null) => formatDateTime(iso);

function countsText(c: SyncCounts): string {
  const parts = [`${c.created} new`, `${c.updated} updated`, `${c.unchanged} unchanged`];
  if (c.rejected) parts.push(`${c.rejected} skipped`);
  return parts.join(', ');
}

/**
 * The state of one import (reusable by every import): its last run, what it imported, the last error, and a
 * "Sync now" button.
 */
export function ImportStatusPanel({
  label,
  status,
  syncing,
  onSyncNow,
  children,
}: {
  label: string;
  status: Pick<ImportStatusView, 'type' | 'enabled' | 'last_run' | 'last_error'>;
  syncing: boolean;
  onSyncNow: () => void;
  /** What else belongs to this import (the SQL import's connection and mapping): under its facts. */
  children?: ReactNode;
}) {
  const run = status.last_run;
  const counts = run ? (Object.entries(run.counts) as [SyncKind, SyncCounts][]) : [];
  return (
    <div className="import-status" data-testid={`import-status-${status.type}`}>
      <div className="import-status-head">
        <strong>{label} import</strong>
        {status.enabled && (
          <Button variant="secondary" onClick={onSyncNow} loading={syncing} disabled={syncing} data-testid={`sync-now-${status.type}`}>
            Sync now
          </Button>
        )}
      </div>
      {/* (switched off: its last run stays for the record; Sync now would be refused) */}
      {!status.enabled && (
        <p className="muted" data-testid={`import-off-${status.type}`}>
          Switched off. Its last run is kept below; switch it on under Import to run it again.
        </p>
      )}
      {!run && <p className="muted">Not run yet. The import runs every hour while it is on.</p>}
      {run && (
        <dl className="import-status-facts">
          <dt>Last run</dt>
          <dd data-testid={`import-last-run-${status.type}`}>
            {when(run.started_at)} ({run.trigger === 'manual' ? 'sync now' : 'scheduled'}) — {OUTCOME_LABEL[run.outcome]}
          </dd>
          <dt>Imported</dt>
          <dd data-testid={`import-counts-${status.type}`}>
            {counts.length === 0 ? 'Nothing yet' : counts.map(([kind, c]) => <div key={kind}>{`${KIND_LABEL[kind]}: ${countsText(c)}`}</div>)}
          </dd>
          {run.rejected_examples.length > 0 && (
            <>
              <dt>Skipped rows</dt>
              <dd>
                {run.rejected_examples.map((r) => (
                  <div key={r} className="muted">
                    {r}
                  </div>
                ))}
              </dd>
            </>
          )}
        </dl>
      )}
      {status.last_error &&
        (lastErrorIsPast(status) ? (
          <p className="muted" data-testid={`import-error-${status.type}`} data-past="true">
            Earlier error ({when(status.last_error.at)}), before the last run: {status.last_error.message}
          </p>
        ) : (
          <p className="field-error" role="alert" data-testid={`import-error-${status.type}`}>
            Last error ({when(status.last_error.at)}): {status.last_error.message}
          </p>
        ))}
      {children}
    </div>
  );
}
