import { DRIVE_MSG, type DriveFolderItem, type DriveService } from '../../../../../shared/schemas/drive';
import { Button } from '../../../components/ui/Button';
import { Modal } from '../../../components/ui/Modal';
import { Spinner } from '../../../components/ui/Spinner';
import { useDriveFolders } from '../api/drive';

/** The folder list pop-up: the account's folders, page after page (`next`), at most 325 px high. */
export function FolderListModal({
  companyId,
  service,
  selected,
  busy,
  onPick,
  onClose,
}: {
  companyId: string;
  service: DriveService;
  selected: string | null;
  busy: boolean;
  onPick: (folder: DriveFolderItem) => void;
  onClose: () => void;
}) {
  const folders = useDriveFolders(companyId, service, true);
  const items = folders.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <Modal title="Select Folder" onClose={onClose} testId="folder-list-popup" footer={<Button variant="secondary" onClick={onClose}>Cancel</Button>}>
      {folders.isPending ? (
        <Spinner label="Loading folders" />
      ) : folders.isError ? (
        <p className="form-error integration-error" role="alert">
          {DRIVE_MSG.connectionError}
        </p>
      ) : items.length === 0 ? (
        <p className="muted">No folders found.</p>
      ) : (
        <ul className="drive-folder-list" data-testid="folder-list">
          {items.map((f) => (
            <li key={f.id}>
              <button type="button" className={`drive-folder ${f.name === selected ? 'is-selected' : ''}`} disabled={busy} onClick={() => onPick(f)} data-testid="folder-item">
                <svg className="drive-folder-icon" viewBox="0 0 24 24" width="18" height="18" aria-hidden="true">
                  <path d="M3 6h6l2 2h10v11H3z" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinejoin="round" />
                </svg>
                {f.name}
              </button>
            </li>
          ))}
          {folders.hasNextPage && (
            <li>
              <Button variant="link" loading={folders.isFetchingNextPage} onClick={() => void folders.fetchNextPage()} data-testid="folder-list-more">
                Load more
              </Button>
            </li>
          )}
        </ul>
      )}
    </Modal>
  );
}
