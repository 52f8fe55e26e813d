import { Button } from '../../../components/ui/Button';
import { Modal } from '../../../components/ui/Modal';

/** The delete pop-up of every master-data screen, with the spec's literal texts (product.md "Master-data list screen"). */
export function DeleteStakeholderModal({
  name,
  pending,
  onConfirm,
  onClose,
  returnFocus,
}: {
  name: string;
  pending: boolean;
  onConfirm(): void;
  onClose(): void;
  /** Where the focus goes when it closes (the next row's Delete after a delete); else back to the row's Delete. */
  returnFocus?: () => HTMLElement | null | undefined;
}) {
  return (
    <Modal title="Delete stakeholder" size="sm" onClose={pending ? undefined : onClose} testId="md-delete-modal" returnFocus={returnFocus}>
      <p className="modal-text">Are you sure to delete {name}?</p>
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
