import { Button } from '../../../components/ui/Button';
import { Modal } from '../../../components/ui/Modal';

/**
 * The list's Send of a selection holding possible copies of earlier documents (marked Duplicate): each would be
 * booked twice, so it asks first, as CONFIRM on the edit screen does. The others can go without the copies.
 */
export function ConfirmSendCopiesModal({ copies, selected, onSendAll, onSendOthers, onClose }: { copies: number; selected: number; onSendAll(): void; onSendOthers(): void; onClose(): void }) {
  const others = selected - copies;
  const text =
    selected === 1
      ? 'This document looks like a copy of one uploaded before (Duplicates shows which). Send it anyway?'
      : copies === 1
        ? `1 of the ${selected} selected documents looks like a copy of one uploaded before (it is marked Duplicate). Send it anyway?`
        : `${copies} of the ${selected} selected documents look like copies of ones uploaded before (they are marked Duplicate). Send them anyway?`;
  return (
    <Modal
      title="Possible duplicate"
      size="md"
      onClose={onClose}
      testId="confirm-send-copies"
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Back
          </Button>
          {others > 0 && (
            <Button variant="secondary" onClick={onSendOthers}>
              {others === 1 ? 'Send the other one' : `Send the other ${others}`}
            </Button>
          )}
          <Button onClick={onSendAll}>{selected === 1 ? 'Send' : `Send all ${selected}`}</Button>
        </>
      }
    >
      <p>{text}</p>
    </Modal>
  );
}
