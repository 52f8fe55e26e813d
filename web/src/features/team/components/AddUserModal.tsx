import { useId, useState } from 'react';
import type { Company } from '../../../../../shared/schemas/company';
import { inviteSchema, type Invite } from '../../../../../shared/schemas/team';
import { Button } from '../../../components/ui/Button';
import { Icon } from '../../../components/ui/Icon';
import { Modal } from '../../../components/ui/Modal';
import { TextAreaField } from '../../../components/ui/TextAreaField';
import { TextField } from '../../../components/ui/TextField';
import { ApiError, messageOf } from '../../../lib/api-error';
import { ROLE_LABELS } from '../../../lib/roles';
import { useForm } from '../../../lib/use-form';
import { zodValidator } from '../../../lib/validation';
import { useInvite } from '../api/team';
import { companyChoiceLabel } from '../../companies/lib/company-label';
import { INVITATION_SENT } from '../lib/labels';

type Values = { name: string; surname: string; email: string; role: string; message: string; company_id: string };

const validate = zodValidator(inviteSchema);

/**
 * The add-user pop-up: step 1 the invitee's details (and the company in the all-companies view), step 2 the
 * confirmation that the invitation mail went out. Invite failures show the server's message under the email.
 */
export function AddUserModal({ companies, defaultCompanyId, onClose }: { companies: Company[]; defaultCompanyId: string; onClose(): void }) {
  const invite = useInvite();
  const [sent, setSent] = useState(false);
  const ids = { role: useId(), company: useId() };
  const form = useForm<Values, Invite>(
    { name: '', surname: '', email: '', role: 'basic', message: '', company_id: defaultCompanyId },
    validate,
  );

  const onSubmit = form.handleSubmit(async (data) => {
    try {
      await invite.mutateAsync({ companyId: data.company_id ?? defaultCompanyId, input: data });
      setSent(true);
    } catch (err) {
      if (err instanceof ApiError && Object.keys(err.fieldErrors).length > 0) form.setServerErrors(err.fieldErrors);
      else form.setServerError('email', messageOf(err));
    }
  });

  if (sent) {
    return (
      <Modal title="Add a user" size="sm" onClose={onClose} testId="add-user-modal">
        <div className="success-block" data-testid="invite-sent">
          <span className="success-icon">
            <Icon name="check" size={28} />
          </span>
          <p>{INVITATION_SENT}</p>
        </div>
        <div className="modal-actions">
          <Button onClick={onClose}>OK</Button>
        </div>
      </Modal>
    );
  }

  const messageError = form.errorOf('message');
  return (
    <Modal title="Add a user" onClose={form.pending ? undefined : onClose} testId="add-user-modal">
      <form className="form" onSubmit={onSubmit} noValidate aria-busy={form.pending}>
        {companies.length > 1 && (
          <div className="field">
            <label htmlFor={ids.company} className="field-label">
              Company
            </label>
            <select
              id={ids.company}
              name="company_id"
              className="input select"
              value={form.values.company_id}
              onChange={(e) => form.setValue('company_id', e.target.value)}
            >
              {companies.map((c) => (
                <option key={c.company_id} value={c.company_id}>
                  {companyChoiceLabel(c, companies)}
                </option>
              ))}
            </select>
          </div>
        )}
        <div className="form-grid">
          <TextField label="Name" autoComplete="off" {...form.text('name')} />
          <TextField label="Surname" autoComplete="off" {...form.text('surname')} />
        </div>
        <TextField label="Email" type="email" autoComplete="off" {...form.text('email')} />
        <div className="field">
          <label htmlFor={ids.role} className="field-label">
            Role
          </label>
          <select
            id={ids.role}
            name="role"
            className="input select"
            value={form.values.role}
            onChange={(e) => form.setValue('role', e.target.value)}
          >
            <option value="basic">{ROLE_LABELS.basic}</option>
            <option value="admin">{ROLE_LABELS.admin}</option>
          </select>
        </div>
        <TextAreaField
          label="Message (optional)"
          name="message"
          value={form.values.message}
          onChange={(e) => form.setValue('message', e.target.value)}
          error={messageError}
        />
        <div className="modal-actions">
          <Button variant="secondary" onClick={onClose} disabled={form.pending}>
            Cancel
          </Button>
          <Button type="submit" loading={form.pending}>
            SEND INVITATION
          </Button>
        </div>
      </form>
    </Modal>
  );
}
