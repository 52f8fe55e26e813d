import { Link } from 'react-router-dom';
import { formatDateTime } from '../../../lib/format';
import type { DriveImportStatus, DriveService } from '../../../../../shared/schemas/drive';
import { useDriveStatus } from '../api/drive';
import { moreSkippedText, pausedFolderText, SKIPPED_SHOWN } from '../lib/note';
import '../drive.css';

/**
 * The folder's files that did not become documents, newest first, each with why (the upload's own words); the
 * rest counted from the import's exact count.
 */
function SkippedFiles({ status, service }: { status: DriveImportStatus; service: DriveService }) {
  const shown = status.skipped_files.slice(0, SKIPPED_SHOWN);
  const more = moreSkippedText(status, shown.length);
  return (
    <div className="drive-skipped" data-testid={`drive-skipped-${service}`}>
      Not imported:
      <ul>
        {shown.map((f) => (
          <li key={`${f.at}-${f.name}`}>
            <span className="drive-skipped-name">{f.name}</span> — {f.reason}
          </li>
        ))}
      </ul>
      {more && <span data-testid={`drive-skipped-more-${service}`}>{more}</span>}
    </div>
  );
}

/**
 * Under the Google and Dropbox toggles of the Integration screen: the Edit Folder link while the import is on,
 * the folder and the last run, and the last error (e.g. a withdrawn grant that paused the import, with its folder kept).
 */
export function DriveImportNote({ companyId, service, on, folder }: { companyId: string; service: DriveService; on: boolean; folder: string | null }) {
  const status = useDriveStatus(companyId).data?.items.find((s) => s.service_type === service);
  const paused = pausedFolderText(status, on);
  return (
    <div className="muted integration-note" data-testid={`drive-note-${service}`}>
      {on ? (
        <>
          {folder ? `Folder ${folder}: new files become documents.` : 'No folder selected yet.'}
          {status?.last_run_at && ` Last run ${formatDateTime(status.last_run_at)}: ${status.last_imported} imported (${status.total_imported} in all).`}
          <div>
            <Link className="integration-link" to={`/integration/${service}`} data-testid={`drive-edit-folder-${service}`}>
              Edit Folder
            </Link>
          </div>
        </>
      ) : (
        'New files in a chosen folder become documents.'
      )}
      {on && status && status.skipped_files.length > 0 && <SkippedFiles status={status} service={service} />}
      {paused && <div data-testid={`drive-paused-${service}`}>{paused}</div>}
      {status?.last_error && (
        <div className="integration-error" role="alert" data-testid={`drive-error-${service}`}>
          {status.last_error}
        </div>
      )}
    </div>
  );
}
