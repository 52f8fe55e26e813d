import { useState } from 'react';
import { changePasswordSchema } from '../../../../../shared/schemas/auth';
import { MSG } from '../../../../../shared/schemas/messages';
import { Button } from '../../../components/ui/Button';
import { Icon } from '../../../components/ui/Icon';
import { Modal } from '../../../components/ui/Modal';
import { TextField } from '../../../components/ui/TextField';
import { changePasswordErrorMessage } from '../../../lib/auth-errors';
import { useForm } from '../../../lib/use-form';
import { withMatch, zodValidator, type Validator } from '../../../lib/validation';
import { useAuth } from '../../../app/auth';
import { changePassword } from '../../auth/api/auth';

const INITIAL = { current_password: '', new_password: '', repeat_password: '' };
type Values = typeof INITIAL;
type Output = ReturnType<typeof changePasswordSchema.parse>;
const validate: Validator<Values, Output> = withMatch<Values, Output>(
  zodValidator(changePasswordSchema),
  'repeat_password',
  'new_password',
  MSG.passwordsSame,
);

export const PASSWORD_CHANGED = 'Your password has been successfully changed.';

/** `email`: the user's login, to sign this tab in again once every session has been ended. */
export function ChangePasswordModal({ email, onClose }: { email: string; onClose(): void }) {
  const [step, setStep] = useState<1 | 2>(1);
  const form = useForm<Values, Output>(INITIAL, validate);
  const { renewSession } = useAuth();

  const onSubmit = form.handleSubmit(async (data) => {
    try {
      await changePassword(data.current_password, data.new_password);
    } catch (err) {
      const { field, message } = changePasswordErrorMessage(err, navigator.onLine);
      form.setServerError(field, message);
      return;
    }
    // Someone who knew the old password is signed out everywhere else.
    await renewSession(email, data.new_password);
    setStep(2);
  });

  if (step === 2) {
    return (
      <Modal title="Change password" size="sm" onClose={onClose} testId="change-password-modal">
        <div className="success-block" data-testid="change-password-success">
          <span className="success-icon">
            <Icon name="check" size={28} />
          </span>
          <p>{PASSWORD_CHANGED}</p>
        </div>
        <div className="modal-actions">
          <Button onClick={onClose}>OK</Button>
        </div>
      </Modal>
    );
  }

  return (
    <Modal title="Change password" size="sm" onClose={form.pending ? undefined : onClose} testId="change-password-modal">
      <form className="form" onSubmit={onSubmit} noValidate aria-busy={form.pending}>
        <TextField label="Current password" type="password" autoComplete="current-password" {...form.text('current_password')} />
        <TextField label="New password" type="password" autoComplete="new-password" {...form.text('new_password')} />
        <TextField label="Repeat new password" type="password" autoComplete="new-password" {...form.text('repeat_password')} />
        <div className="modal-actions">
          <Button variant="secondary" onClick={onClose} disabled={form.pending}>
            Cancel
          </Button>
          <Button type="submit" loading={form.pending}>
            CONFIRM
          </Button>
        </div>
      </form>
    </Modal>
  );
}
