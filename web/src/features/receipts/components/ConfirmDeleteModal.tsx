import { Button } from '../../../components/ui/Button';
import { Modal } from '../../../components/ui/Modal';

/** Delete confirmation of the selected documents. */
export function ConfirmDeleteModal({ count, pending, onConfirm, onClose }: { count: number; pending: boolean; onConfirm(): void; onClose(): void }) {
  return (
    <Modal title="Delete" size="sm" onClose={pending ? undefined : onClose} testId="delete-receipts-modal">
      <p className="modal-text">
        Are you sure you want to delete the selected items?{count > 1 ? ` (${count})` : ''}
      </p>
      <p className="modal-text text-danger">This actions is irreversible!</p>
      <div className="modal-actions">
        <Button variant="secondary" onClick={onClose} disabled={pending}>
          Cancel
        </Button>
        <Button variant="danger" onClick={onConfirm} loading={pending}>
          Delete
        </Button>
      </div>
    </Modal>
  );
}
