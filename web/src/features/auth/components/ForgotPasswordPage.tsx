import { useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { forgotPasswordEmailSchema, resetPasswordSchema } from '../../../../../shared/schemas/auth';
import { MSG } from '../../../../../shared/schemas/messages';
import { Button } from '../../../components/ui/Button';
import { Icon } from '../../../components/ui/Icon';
import { useInfoPopup } from '../../../components/ui/InfoPopup';
import { TextField } from '../../../components/ui/TextField';
import { resetErrorMessage } from '../../../lib/auth-errors';
import { useForm } from '../../../lib/use-form';
import { withMatch, zodValidator, type Validator } from '../../../lib/validation';
import { finishPasswordReset, startPasswordReset } from '../api/auth';
import { AuthLayout } from './AuthLayout';
import type { AuthLocationState } from './SignInPage';

const validateEmail = zodValidator(forgotPasswordEmailSchema);
const RESET_INITIAL = { code: '', new_password: '', new_password_repeat: '' };
type ResetValues = typeof RESET_INITIAL;
type ResetOutput = ReturnType<typeof resetPasswordSchema.parse>;
const validateReset: Validator<ResetValues, ResetOutput> = withMatch<ResetValues, ResetOutput>(
  zodValidator(resetPasswordSchema),
  'new_password_repeat',
  'new_password',
  MSG.passwordsSame,
);

function Steps({ step }: { step: 1 | 2 | 3 }) {
  return (
    <ol className="steps" aria-label={`Step ${step} of 3`}>
      {[1, 2, 3].map((n) => (
        <li key={n} className={n < step ? 'done' : n === step ? 'current' : ''} aria-current={n === step ? 'step' : undefined}>
          <span>{n}</span>
        </li>
      ))}
    </ol>
  );
}

export function ForgotPasswordPage() {
  const [step, setStep] = useState<1 | 2 | 3>(1);
  const [email, setEmail] = useState('');
  const navigate = useNavigate();
  // where the user was going before the sign-in screen: back there after signing in with the new password
  const from = (useLocation().state as AuthLocationState | null)?.from;
  const info = useInfoPopup();
  const emailForm = useForm({ email: '' }, validateEmail);
  const resetForm = useForm<ResetValues, ResetOutput>(RESET_INITIAL, validateReset);
  const [resending, setResending] = useState(false);

  const onEmail = emailForm.handleSubmit(async (data) => {
    try {
      await startPasswordReset(data.email);
      setEmail(data.email);
      setStep(2);
    } catch (err) {
      emailForm.setServerError('email', resetErrorMessage(err, navigator.onLine));
    }
  });

  const onReset = resetForm.handleSubmit(async (data) => {
    try {
      await finishPasswordReset(email, data.code, data.new_password);
      setStep(3);
    } catch (err) {
      resetForm.setServerError('code', resetErrorMessage(err, navigator.onLine));
    }
  });

  const onResend = async () => {
    setResending(true);
    try {
      await startPasswordReset(email);
      info.show('We have sent a new code to your email.', 'success');
    } catch (err) {
      info.show(resetErrorMessage(err, navigator.onLine), 'error');
    } finally {
      setResending(false);
    }
  };

  const footer = (
    <>
      Remembered it?{' '}
      <Link to="/signin" state={{ from } satisfies AuthLocationState}>
        Log in
      </Link>
    </>
  );

  if (step === 3) {
    return (
      <AuthLayout title="Password changed">
        <Steps step={3} />
        <div className="success-block" data-testid="forgot-success">
          <span className="success-icon">
            <Icon name="check" size={28} />
          </span>
          <p>Your password has been changed. You can now log in with your new password.</p>
        </div>
        <Button block onClick={() => navigate('/signin', { state: { email, from } satisfies AuthLocationState })}>
          LOG IN
        </Button>
      </AuthLayout>
    );
  }

  if (step === 2) {
    return (
      <AuthLayout
        title="Set a new password"
        subtitle={
          <>
            {/* The identity provider answers alike for an unknown address (no one learns who has an account) */}
            If an account exists for <strong>{email}</strong>, a code is on its way there. Enter it and choose a new password.
          </>
        }
        footer={footer}
      >
        <Steps step={2} />
        <form className="form" onSubmit={onReset} noValidate aria-busy={resetForm.pending} data-testid="forgot-reset-form">
          <TextField label="Code" inputMode="numeric" autoComplete="one-time-code" {...resetForm.text('code')} />
          <TextField label="New password" type="password" autoComplete="new-password" {...resetForm.text('new_password')} />
          <TextField
            label="Repeat new password"
            type="password"
            autoComplete="new-password"
            {...resetForm.text('new_password_repeat')}
          />
          <Button type="submit" block loading={resetForm.pending}>
            CHANGE PASSWORD
          </Button>
          <Button variant="link" onClick={() => void onResend()} loading={resending}>
            Send the code again
          </Button>
        </form>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout
      title="Forgot password"
      subtitle="Enter the email of your account and we will send you a code to reset your password."
      footer={footer}
    >
      <Steps step={1} />
      <form className="form" onSubmit={onEmail} noValidate aria-busy={emailForm.pending} data-testid="forgot-email-form">
        <TextField label="Email" type="email" autoComplete="email" {...emailForm.text('email')} />
        <Button type="submit" block loading={emailForm.pending}>
          SEND CODE
        </Button>
      </form>
    </AuthLayout>
  );
}
