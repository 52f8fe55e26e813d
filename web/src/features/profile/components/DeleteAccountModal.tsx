import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { ACCOUNT_MSG, type DeleteAccountInput } from '../../../../../shared/schemas/user';
import { useAuth } from '../../../app/auth';
import { Button } from '../../../components/ui/Button';
import { Modal } from '../../../components/ui/Modal';
import { TextField } from '../../../components/ui/TextField';
import { holdSignInNotice } from '../../../lib/signin-notice';
import { useForm } from '../../../lib/use-form';
import { useDeleteOwnAccount } from '../api/profile';
import {
  confirmsAccountEmail,
  DELETE_ACCOUNT_CONFIRM_LABEL,
  DELETE_ACCOUNT_EXPLANATION,
  DELETE_ACCOUNT_TITLE,
  deleteAccountFailure,
  deleteAccountValidator,
  type DeleteAccountValues,
} from '../lib/delete-account';

/**
 * My Profile's Delete account pop-up: the account's email typed again confirms it. A refusal (409: companies with
 * other members, documents without a company, an upload in progress) is said in the pop-up, which stays open; once
 * deleted, the session ends here (the identity provider no longer knows the user, so the sign-out only clears the
 * local tokens) and the sign-in screen says that the account was deleted.
 */
export function DeleteAccountModal({ email, onClose }: { email: string; onClose(): void }) {
  const validate = useMemo(() => deleteAccountValidator(email), [email]);
  const form = useForm<DeleteAccountValues, DeleteAccountInput>({ email: '' }, validate);
  const remove = useDeleteOwnAccount();
  const auth = useAuth();
  const navigate = useNavigate();
  const [failure, setFailure] = useState<string | null>(null);
  const confirmed = confirmsAccountEmail(form.values.email, email);

  const onSubmit = form.handleSubmit(async ({ email: typed }) => {
    setFailure(null);
    try {
      await remove.mutateAsync(typed);
    } catch (err) {
      const told = deleteAccountFailure(err);
      if ('field' in told) form.setServerError('email', told.field);
      else setFailure(told.alert);
      return;
    }
    // Held before the session ends: the sign-in screen opens with it, whether the sign-out's redirect or ours comes first.
    holdSignInNotice(ACCOUNT_MSG.deleted);
    // The app's sign-out: a failed token revoke (the user is gone) is ignored once the local tokens are cleared, and
    // the query cache is cleared with them.
    await auth.signOut();
    navigate('/signin', { replace: true });
  });

  return (
    <Modal title={DELETE_ACCOUNT_TITLE} size="sm" onClose={form.pending ? undefined : onClose} testId="delete-account-modal">
      <form className="form" onSubmit={onSubmit} noValidate aria-busy={form.pending}>
        <p className="modal-text">{DELETE_ACCOUNT_EXPLANATION}</p>
        <TextField
          label={DELETE_ACCOUNT_CONFIRM_LABEL}
          type="email"
          autoComplete="off"
          spellCheck={false}
          {...form.text('email')}
        />
        {failure && (
          <p className="notice notice-error" role="alert" data-testid="delete-account-error">
            {failure}
          </p>
        )}
        <div className="modal-actions">
          <Button variant="secondary" onClick={onClose} disabled={form.pending}>
            CANCEL
          </Button>
          <Button type="submit" variant="danger" loading={form.pending} disabled={!confirmed}>
            DELETE ACCOUNT
          </Button>
        </div>
      </form>
    </Modal>
  );
}
