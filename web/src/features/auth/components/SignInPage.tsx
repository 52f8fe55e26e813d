import { useEffect, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { signInSchema } from '../../../../../shared/schemas/auth';
import { useAuth } from '../../../app/auth';
import { Button } from '../../../components/ui/Button';
import { TextField } from '../../../components/ui/TextField';
import { signInErrorMessage } from '../../../lib/auth-errors';
import { clearCredentials, holdCredentials } from '../../../lib/pending-credentials';
import { clearSignInNotice, peekSignInNotice } from '../../../lib/signin-notice';
import { useForm } from '../../../lib/use-form';
import { zodValidator } from '../../../lib/validation';
import { signInWithEmail } from '../api/auth';
import { AuthLayout } from './AuthLayout';

const validate = zodValidator(signInSchema);

export interface AuthLocationState {
  from?: string;
  email?: string;
}

export function SignInPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const auth = useAuth();
  const state = (location.state ?? null) as AuthLocationState | null;
  const form = useForm({ email: state?.email ?? '', password: '' }, validate);
  // A message left for this screen (My Profile's Delete account), shown while it stays open.
  const [notice] = useState(peekSignInNotice);
  useEffect(() => clearSignInNotice(), []);

  const onSubmit = form.handleSubmit(async ({ email, password }) => {
    try {
      const outcome = await signInWithEmail(email, password);
      if (outcome === 'notConfirmed') {
        holdCredentials({ email, password });
        navigate('/signup/confirm?notconfirmed', { state: { email, from: state?.from } satisfies AuthLocationState });
        return;
      }
      clearCredentials();
      await auth.refresh();
    } catch (err) {
      form.setServerError('password', signInErrorMessage(err, navigator.onLine));
    }
  });

  return (
    <AuthLayout
      title="Log in"
      subtitle="Welcome back. Log in to review and export your documents."
      footer={
        <>
          Don&apos;t have an account? <Link to="/signup">Register</Link>
        </>
      }
    >
      {notice && (
        <p className="notice auth-notice" role="status" data-testid="signin-notice">
          {notice}
        </p>
      )}
      <form className="form" onSubmit={onSubmit} noValidate aria-busy={form.pending} data-testid="signin-form">
        <TextField label="Email" type="email" autoComplete="email" {...form.text('email')} />
        <TextField label="Password" type="password" autoComplete="current-password" {...form.text('password')} />
        <div className="form-row-end">
          {/* the page the user was on before signing in comes back with the way round a forgotten password */}
          <Link to="/forgot" state={{ from: state?.from } satisfies AuthLocationState} className="link-small">
            Forgot password?
          </Link>
        </div>
        <Button type="submit" block loading={form.pending}>
          LOG IN
        </Button>
      </form>
    </AuthLayout>
  );
}
