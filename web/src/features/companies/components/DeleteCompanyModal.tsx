import type { Company } from '../../../../../shared/schemas/company';
import { Button } from '../../../components/ui/Button';
import { useInfoPopup } from '../../../components/ui/InfoPopup';
import { Modal } from '../../../components/ui/Modal';
import { messageOf } from '../../../lib/api-error';
import { useDeleteCompany } from '../api/companies';

export function DeleteCompanyModal({ company, onClose }: { company: Company; onClose(): void }) {
  const remove = useDeleteCompany();
  const info = useInfoPopup();

  const onDelete = async () => {
    try {
      await remove.mutateAsync(company.company_id);
      info.show(`${company.name} has been deleted.`, 'success');
      onClose();
    } catch (err) {
      info.show(messageOf(err), 'error');
    }
  };

  return (
    <Modal title="Delete company" size="sm" onClose={remove.isPending ? undefined : onClose} testId="delete-company-modal">
      <p className="modal-text">
        Are you sure you want to delete <strong>{company.name}</strong>?
      </p>
      <p className="modal-text text-danger">This actions is irreversible!</p>
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
