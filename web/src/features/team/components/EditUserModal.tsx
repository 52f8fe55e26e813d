import { useAuth } from '../../../app/auth';
import { useId, useMemo } from 'react';
import { EMAIL_IN_DOMAIN } from '../../../../../shared/constants';
import { updateCompanyUserSchema, type CompanyUser, type UpdateCompanyUserInput } from '../../../../../shared/schemas/team';
import { Button } from '../../../components/ui/Button';
import { useInfoPopup } from '../../../components/ui/InfoPopup';
import { Modal } from '../../../components/ui/Modal';
import { TextField } from '../../../components/ui/TextField';
import { ApiError, messageOf } from '../../../lib/api-error';
import { ROLE_LABELS } from '../../../lib/roles';
import { useForm } from '../../../lib/use-form';
import { changedFields, issuesToFieldErrors, type Validator } from '../../../lib/validation';
import { useUpdateCompanyUser } from '../api/team';

type Values = { name: string; surname: string; role: string; email_prefix: string };

export const USER_UPDATED = 'The user has been updated.';
export const SELF_DEMOTE_WARNING =
  'This is your own role: as a Basic user you can no longer manage the team, the integrations or the company settings, and only another administrator can make you one again.';

/** Validates and returns only the changed fields (the only ones sent). */
export function editUserValidator(initial: Values): Validator<Values, UpdateCompanyUserInput> {
  return (values) => {
    const r = updateCompanyUserSchema.safeParse(changedFields(initial, values));
    if (r.success) return { ok: true, data: r.data, errors: {} };
    return { ok: false, errors: issuesToFieldErrors(r.error.issues) };
  };
}

/**
 * The Email-in address of a member as the form edits it: the prefix (the part before '@', the only part saved) and
 * the domain the API shows the address at (the deployment's receiving domain).
 */
export function emailInParts(user: Pick<CompanyUser, 'email' | 'email_prefix'>): { prefix: string; domain: string } {
  const at = user.email.lastIndexOf('@');
  return {
    prefix: user.email_prefix || (at >= 0 ? user.email.slice(0, at) : user.email),
    domain: at >= 0 ? user.email.slice(at + 1) : EMAIL_IN_DOMAIN,
  };
}

/** Edit User Details: name, surname, role and the Email-in prefix (the part before '@'). */
export function EditUserModal({ user, onClose }: { user: CompanyUser; onClose(): void }) {
  const { prefix, domain } = emailInParts(user);
  const initial = useMemo<Values>(
    () => ({ name: user.name, surname: user.surname, role: user.role, email_prefix: prefix }),
    [user, prefix],
  );
  const validate = useMemo(() => editUserValidator(initial), [initial]);
  const form = useForm<Values, UpdateCompanyUserInput>(initial, validate);
  const update = useUpdateCompanyUser();
  const info = useInfoPopup();
  const roleId = useId();
  // an administrator lowering their own role loses My Team, Integration and the settings at once: said before SAVE
  const self = useAuth().user?.userId === user.user_id;
  const givingUpAdmin = self && user.role === 'admin' && form.values.role === 'basic';

  const onSubmit = form.handleSubmit(async (changes) => {
    if (Object.keys(changes).length === 0) return onClose();
    try {
      await update.mutateAsync({ companyId: user.company_id, userId: user.user_id, changes });
      info.show(USER_UPDATED, 'success');
      onClose();
    } catch (err) {
      if (err instanceof ApiError && Object.keys(err.fieldErrors).length > 0) form.setServerErrors(err.fieldErrors);
      else form.setServerError('email_prefix', messageOf(err));
    }
  });

  return (
    <Modal title="Edit User Details" onClose={form.pending ? undefined : onClose} testId="edit-user-modal">
      <form className="form" onSubmit={onSubmit} noValidate aria-busy={form.pending}>
        <div className="form-grid">
          <TextField label="Name" autoComplete="off" {...form.text('name')} />
          <TextField label="Surname" autoComplete="off" {...form.text('surname')} />
        </div>
        <div className="field">
          <label htmlFor={roleId} className="field-label">
            Role
          </label>
          <select
            id={roleId}
            name="role"
            className="input select"
            value={form.values.role}
            disabled={user.is_owner}
            onChange={(e) => form.setValue('role', e.target.value)}
          >
            <option value="basic">{ROLE_LABELS.basic}</option>
            <option value="admin">{ROLE_LABELS.admin}</option>
          </select>
          {user.is_owner && <p className="field-hint">The account owner stays an administrator.</p>}
          {givingUpAdmin && (
            <p className="field-hint er-field-warning" role="alert" data-testid="self-demote-warning">
              {SELF_DEMOTE_WARNING}
            </p>
          )}
        </div>
        <TextField
          label="Email-in address"
          autoComplete="off"
          hint={<>Documents mailed to this address land in the company&apos;s inbox. The address ends with @{domain}.</>}
          suffix={`@${domain}`}
          {...form.text('email_prefix')}
        />
        <div className="modal-actions">
          <Button variant="secondary" onClick={onClose} disabled={form.pending}>
            Cancel
          </Button>
          <Button type="submit" loading={form.pending}>
            SAVE
          </Button>
        </div>
      </form>
    </Modal>
  );
}
