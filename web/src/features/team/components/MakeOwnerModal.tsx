import { useState } from 'react';
import { OWNER_MSG, ownerChangedMessage, type CompanyUser } from '../../../../../shared/schemas/team';
import { Button } from '../../../components/ui/Button';
import { useInfoPopup } from '../../../components/ui/InfoPopup';
import { Modal } from '../../../components/ui/Modal';
import { messageOf } from '../../../lib/api-error';
import { fullName } from '../../../lib/format';
import { useTransferOwnership } from '../api/team';
import { makeOwnerQuestion } from '../lib/owner';

export const MAKE_OWNER_TITLE = 'Make Account Owner';

/**
 * My Team's "Make Account Owner" confirmation: CONFIRM hands the company `companyName` over to `user`. Done, the
 * pop-up closes and an info pop-up says who owns it now; a refusal (the API's message) is said in the pop-up, which
 * stays open.
 */
export function MakeOwnerModal({ user, companyName, onClose }: { user: CompanyUser; companyName: string; onClose(): void }) {
  const transfer = useTransferOwnership();
  const info = useInfoPopup();
  const [failure, setFailure] = useState<string | null>(null);
  const name = fullName(user) || user.user.email;

  const onConfirm = async () => {
    setFailure(null);
    try {
      const res = await transfer.mutateAsync({ companyId: user.company_id, userId: user.user_id });
      info.show(ownerChangedMessage(fullName(res?.owner) || name), 'success');
      onClose();
    } catch (err) {
      setFailure(messageOf(err));
    }
  };

  return (
    <Modal title={MAKE_OWNER_TITLE} size="sm" onClose={transfer.isPending ? undefined : onClose} testId="make-owner-modal">
      <p className="modal-text">{makeOwnerQuestion(name, companyName)}</p>
      <p className="modal-text">{OWNER_MSG.confirm}</p>
      {failure && (
        <p className="notice notice-error" role="alert" data-testid="make-owner-error">
          {failure}
        </p>
      )}
      <div className="modal-actions">
        <Button variant="secondary" onClick={onClose} disabled={transfer.isPending}>
          CANCEL
        </Button>
        <Button onClick={() => void onConfirm()} loading={transfer.isPending}>
          CONFIRM
        </Button>
      </div>
    </Modal>
  );
}
