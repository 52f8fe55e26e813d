import type { FormEvent, ReactNode } from 'react';
import { Button } from '../../../components/ui/Button';
import { Icon, type IconName } from '../../../components/ui/Icon';
import { Modal } from '../../../components/ui/Modal';

type SubmitHandler = (e: FormEvent<HTMLFormElement>) => void | Promise<void>;

/** The part of an add form's state the card uses: whether it is saving, and a refusal shown under a field. */
interface AddCardForm {
  pending: boolean;
  setServerError(name: 'company_id', message: string): void;
}

/** Upload XLSX of the all-companies view before a company is chosen: said under Company. */
export const UPLOAD_NEEDS_COMPANY = 'Choose the company to upload into';

/**
 * The add form on top of a master-data list: its title, Upload XLSX (into `companyId`; without one,
 * UPLOAD_NEEDS_COMPANY under Company), the fields and ADD.
 */
export function MasterAddCard({
  icon,
  title,
  gridClassName = 'md-add-grid',
  form,
  onSubmit,
  companyId,
  onUpload,
  children,
}: {
  icon: IconName;
  title: string;
  gridClassName?: string;
  form: AddCardForm;
  onSubmit: SubmitHandler;
  companyId: string | undefined;
  onUpload(companyId: string): void;
  children: ReactNode;
}) {
  const { pending } = form;
  return (
    <form className="card form md-add" onSubmit={onSubmit} noValidate aria-busy={pending} data-testid="md-add-form">
      <div className="card-head">
        <h2>
          <Icon name={icon} size={18} /> {title}
        </h2>
        <Button
          variant="secondary"
          className="btn-sm"
          icon={<Icon name="upload" size={16} />}
          onClick={() => (companyId ? onUpload(companyId) : form.setServerError('company_id', UPLOAD_NEEDS_COMPANY))}
        >
          Upload XLSX
        </Button>
      </div>
      <div className={gridClassName}>{children}</div>
      <div className="form-actions">
        <Button type="submit" loading={pending} icon={<Icon name="plus" size={16} />}>
          ADD
        </Button>
      </div>
    </form>
  );
}

/** The edit pop-up of a master-data record: its fields, Cancel and Save; it cannot be closed while saving. */
export function MasterEditModal({
  title,
  size,
  pending,
  onSubmit,
  onClose,
  children,
}: {
  title: string;
  size?: 'sm' | 'md' | 'lg';
  pending: boolean;
  onSubmit: SubmitHandler;
  onClose(): void;
  children: ReactNode;
}) {
  return (
    <Modal title={title} size={size} onClose={pending ? undefined : onClose} testId="md-edit-modal">
      <form className="form" onSubmit={onSubmit} noValidate aria-busy={pending}>
        {children}
        <div className="modal-actions">
          <Button variant="secondary" onClick={onClose} disabled={pending}>
            Cancel
          </Button>
          <Button type="submit" loading={pending}>
            Save
          </Button>
        </div>
      </form>
    </Modal>
  );
}
