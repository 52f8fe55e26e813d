import type { CompanyUser } from '../../../../../shared/schemas/team';
import { Button } from '../../../components/ui/Button';
import { useInfoPopup } from '../../../components/ui/InfoPopup';
import { Modal } from '../../../components/ui/Modal';
import { messageOf } from '../../../lib/api-error';
import { fullName } from '../../../lib/format';
import { useDeleteCompanyUser } from '../api/team';
import { DELETE_CONFIRMATION } from '../lib/labels';

export function DeleteUserModal({ user, onClose }: { user: CompanyUser; onClose(): void }) {
  const remove = useDeleteCompanyUser();
  const info = useInfoPopup();

  const onDelete = async () => {
    try {
      await remove.mutateAsync({ companyId: user.company_id, userId: user.user_id });
      info.show(`${fullName(user) || user.user.email} has been deleted.`, 'success');
      onClose();
    } catch (err) {
      info.show(messageOf(err), 'error');
    }
  };

  return (
    <Modal title="Delete User" size="sm" onClose={remove.isPending ? undefined : onClose} testId="delete-user-modal">
      <p className="modal-text">{DELETE_CONFIRMATION}</p>
      <div className="modal-actions">
        <Button variant="secondary" onClick={onClose} disabled={remove.isPending}>
          Cancel
        </Button>
        <Button variant="danger" onClick={() => void onDelete()} loading={remove.isPending}>
          Delete
        </Button>
      </div>
    </Modal>
  );
}
