import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { invitePasswordSchema } from '../../../../../shared/schemas/auth';
import { MSG } from '../../../../../shared/schemas/messages';
import { useAuth } from '../../../app/auth';
import { Button } from '../../../components/ui/Button';
import { Checkbox } from '../../../components/ui/Checkbox';
import { Icon } from '../../../components/ui/Icon';
import { useInfoPopup } from '../../../components/ui/InfoPopup';
import { LoadingBlock } from '../../../components/ui/Spinner';
import { TextField } from '../../../components/ui/TextField';
import { NETWORK_ERROR_MESSAGE } from '../../../lib/api-error';
import { ROLE_LABELS } from '../../../lib/roles';
import { errorName, isNetworkError, SIGN_UP_FAILED } from '../../../lib/auth-errors';
import { clearCredentials, holdCredentials } from '../../../lib/pending-credentials';
import { useForm } from '../../../lib/use-form';
import { withMatch, zodValidator, type Validator } from '../../../lib/validation';
import { registerInvited, signInWithEmail } from '../api/auth';
import { useConfirmInvitation, useInvitation, type Invitation } from '../api/invitation';
import { AuthLayout } from './AuthLayout';

const INITIAL = { password: '', passwordRepeat: '', acceptTerms: false };
type Values = typeof INITIAL;
type Output = ReturnType<typeof invitePasswordSchema.parse>;
const validate: Validator<Values, Output> = withMatch<Values, Output>(
  zodValidator(invitePasswordSchema),
  'passwordRepeat',
  'password',
  MSG.passwordsSame,
);

/** Which company the invitation is to, and as what: the person sees what they join before setting a password. */
export function inviteSubtitle(invitation: Pick<Invitation, 'company_name' | 'role'>): string {
  const role = invitation.role === 'admin' ? `an ${ROLE_LABELS.admin}` : `a ${ROLE_LABELS.basic}`;
  return `You have been invited to ${invitation.company_name} as ${role}. Set a password to create your account.`;
}

export const INVITATION_ACCEPTED = 'Your invitation has been accepted. Log in to open the company.';
export const INVITATION_UNAVAILABLE = 'This invitation link cannot be used. Ask the person who invited you for a new one.';

function InviteForm({ invitation, token }: { invitation: Invitation; token: string }) {
  const navigate = useNavigate();
  const auth = useAuth();
  const form = useForm<Values, Output>(INITIAL, validate);

  const onSubmit = form.handleSubmit(async ({ password }) => {
    let confirmed: boolean;
    try {
      ({ confirmed } = await registerInvited(invitation.email, password, { id: invitation.id, token }));
    } catch (err) {
      if (errorName(err) === 'UsernameExistsException') {
        // An account of this address that was never confirmed: a new code, and on to confirming it
        holdCredentials({ email: invitation.email, password });
        navigate('/signup/confirm?notconfirmed', { state: { email: invitation.email } });
        return;
      }
      form.setServerError('password', isNetworkError(err) || !navigator.onLine ? NETWORK_ERROR_MESSAGE : SIGN_UP_FAILED);
      return;
    }
    try {
      const outcome = await signInWithEmail(invitation.email, password);
      if (outcome === 'signedIn') {
        clearCredentials();
        await auth.refresh();
        navigate('/dashboard', { replace: true });
        return;
      }
    } catch {
      // the account exists; log in (or confirm it) from the next screen
    }
    if (confirmed) {
      navigate('/signin', { replace: true });
      return;
    }
    holdCredentials({ email: invitation.email, password });
    navigate('/signup/confirm', { state: { email: invitation.email } });
  });

  return (
    <form className="form" onSubmit={onSubmit} noValidate aria-busy={form.pending} data-testid="invite-form">
      <TextField label="Email" name="email" type="email" value={invitation.email} readOnly />
      <TextField label="Password" type="password" autoComplete="new-password" {...form.text('password')} />
      <TextField label="Repeat password" type="password" autoComplete="new-password" {...form.text('passwordRepeat')} />
      <Checkbox label="I accept the terms and conditions and the privacy policy" {...form.checkbox('acceptTerms')} />
      <Button type="submit" block loading={form.pending}>
        SET PASSWORD
      </Button>
    </form>
  );
}

/**
 * /signup/invite?token=…: signs out an existing session first, reads the invitation (unauthenticated),
 * accepts it at once for an existing account, otherwise lets the invitee set a password.
 */
export function InvitePage() {
  const [params] = useSearchParams();
  const token = params.get('token');
  const auth = useAuth();
  const navigate = useNavigate();
  const info = useInfoPopup();
  const [ready, setReady] = useState(false);
  const checked = useRef(false);

  useEffect(() => {
    if (checked.current || auth.status === 'loading') return;
    checked.current = true;
    if (auth.status === 'signedIn') void auth.signOut().finally(() => setReady(true));
    else setReady(true);
  }, [auth]);

  const invitation = useInvitation(token, ready);
  const confirmInvitation = useConfirmInvitation();
  const [accepted, setAccepted] = useState<'idle' | 'pending' | 'done' | 'failed'>('idle');
  const failed = ready && (!token || invitation.isError || accepted === 'failed');

  useEffect(() => {
    if (failed) info.show(MSG.somethingWrong, 'error');
  }, [failed, info]);

  useEffect(() => {
    const inv = invitation.data;
    if (!inv || inv.new_account_required || accepted !== 'idle' || !token) return;
    setAccepted('pending');
    confirmInvitation(token)
      .then(() => setAccepted('done'))
      .catch(() => setAccepted('failed'));
  }, [invitation.data, accepted, token, confirmInvitation]);

  const footer = (
    <>
      Already have an account? <Link to="/signin">Log in</Link>
    </>
  );

  if (failed) {
    return (
      <AuthLayout title="Invitation" footer={footer}>
        <p className="notice notice-error" data-testid="invite-failed">
          {INVITATION_UNAVAILABLE}
        </p>
      </AuthLayout>
    );
  }

  if (!ready || invitation.isPending || accepted === 'pending') {
    return (
      <AuthLayout title="Invitation">
        <LoadingBlock label="Loading the invitation" />
      </AuthLayout>
    );
  }

  if (accepted === 'done' && invitation.data) {
    const email = invitation.data.email;
    return (
      <AuthLayout title="Invitation accepted">
        <div className="success-block" data-testid="invite-accepted">
          <span className="success-icon">
            <Icon name="check" size={28} />
          </span>
          <p>{INVITATION_ACCEPTED}</p>
        </div>
        <Button block onClick={() => navigate('/signin', { state: { email } })}>
          LOG IN
        </Button>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout title="Join your team" subtitle={invitation.data ? inviteSubtitle(invitation.data) : undefined} footer={footer}>
      {invitation.data && token && <InviteForm invitation={invitation.data} token={token} />}
    </AuthLayout>
  );
}
