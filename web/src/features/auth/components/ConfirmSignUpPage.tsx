import { useEffect, useRef, useState } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { confirmSignUpSchema, emailField } from '../../../../../shared/schemas/auth';
import { MSG } from '../../../../../shared/schemas/messages';
import { useAuth } from '../../../app/auth';
import { Button } from '../../../components/ui/Button';
import { useInfoPopup } from '../../../components/ui/InfoPopup';
import { TextField } from '../../../components/ui/TextField';
import { clearCredentials, peekCredentials } from '../../../lib/pending-credentials';
import { useForm } from '../../../lib/use-form';
import { zodValidator } from '../../../lib/validation';
import { confirmRegistration, resendCode, signInWithEmail } from '../api/auth';
import { confirmFailure, resendFailure, type ConfirmFailure } from '../lib/confirm-errors';
import { AuthLayout } from './AuthLayout';
import type { AuthLocationState } from './SignInPage';

const validate = zodValidator(confirmSignUpSchema);
const emailOnly = emailField();

export const CODE_SENT = 'We have sent a new confirmation code to your email.';
export const ACCOUNT_CONFIRMED = 'Your account has been confirmed. Please log in.';

export function ConfirmSignUpPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const auth = useAuth();
  const info = useInfoPopup();
  const state = (location.state ?? null) as AuthLocationState | null;
  const held = peekCredentials();
  const knownEmail = held?.email ?? state?.email ?? params.get('email') ?? '';
  const form = useForm({ email: knownEmail, code: '' }, validate);
  const [resending, setResending] = useState(false);
  const resentOnLoad = useRef(false);

  /** The log-in screen with the email filled and `message` in the pop-up: the account is confirmed (now, or before in another tab). */
  const toSignIn = (email: string, message: string) => {
    info.show(message, 'success');
    navigate('/signin', { state: { email, from: state?.from } satisfies AuthLocationState });
  };

  const resend = async (email: string) => {
    setResending(true);
    try {
      await resendCode(email);
      // the refusal of an earlier code ('Invalid code!') does not hold for the new one
      form.setServerErrors({});
      info.show(CODE_SENT, 'success');
    } catch (err) {
      const failure = resendFailure(err, navigator.onLine);
      if (failure.kind === 'confirmed') toSignIn(email, failure.message);
      else info.show(failure.message, 'error');
    } finally {
      setResending(false);
    }
  };

  // /signup/confirm?notconfirmed: the user tried to log in before confirming; send the code again.
  useEffect(() => {
    if (resentOnLoad.current || !params.has('notconfirmed') || !knownEmail) return;
    resentOnLoad.current = true;
    void resend(knownEmail);
  }, [params, knownEmail]); // runs once: guarded by resentOnLoad

  const onResend = () => {
    const email = emailOnly.safeParse(form.values.email);
    if (!email.success) {
      form.setServerError('email', email.error.issues[0]?.message ?? MSG.invalidEmail);
      return;
    }
    void resend(email.data);
  };

  const onSubmit = form.handleSubmit(async ({ email, code }) => {
    let failure: ConfirmFailure | null = null;
    try {
      await confirmRegistration(email, code);
    } catch (err) {
      failure = confirmFailure(err, navigator.onLine);
      if (failure.kind !== 'confirmed') {
        form.setServerError('code', failure.message);
        return;
      }
    }
    const credentials = peekCredentials();
    if (credentials && credentials.email === email) {
      try {
        if ((await signInWithEmail(credentials.email, credentials.password)) === 'signedIn') {
          clearCredentials();
          await auth.refresh();
          navigate(state?.from ?? '/dashboard', { replace: true });
          return;
        }
      } catch {
        // fall back to the log-in screen
      }
    }
    toSignIn(email, failure?.message ?? ACCOUNT_CONFIRMED);
  });

  return (
    <AuthLayout
      title="Confirm your email"
      subtitle={
        knownEmail ? (
          <>
            We sent a confirmation code to <strong>{knownEmail}</strong>. Enter it below to activate your account.
          </>
        ) : (
          'Enter the confirmation code we sent to your email.'
        )
      }
      footer={
        <>
          Back to <Link to="/signin">Log in</Link>
        </>
      }
    >
      <form className="form" onSubmit={onSubmit} noValidate aria-busy={form.pending} data-testid="confirm-form">
        <TextField label="Email" type="email" autoComplete="email" readOnly={Boolean(knownEmail)} {...form.text('email')} />
        <TextField label="Confirmation code" inputMode="numeric" autoComplete="one-time-code" {...form.text('code')} />
        <Button type="submit" block loading={form.pending}>
          CONFIRM
        </Button>
        <Button variant="link" onClick={onResend} loading={resending}>
          Send the code again
        </Button>
      </form>
    </AuthLayout>
  );
}
