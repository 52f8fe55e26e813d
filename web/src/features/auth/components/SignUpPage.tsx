import { Link, useNavigate } from 'react-router-dom';
import { signUpSchema } from '../../../../../shared/schemas/auth';
import { MSG } from '../../../../../shared/schemas/messages';
import { useAuth } from '../../../app/auth';
import { Button } from '../../../components/ui/Button';
import { Checkbox } from '../../../components/ui/Checkbox';
import { TextField } from '../../../components/ui/TextField';
import { NETWORK_ERROR_MESSAGE } from '../../../lib/api-error';
import { isNetworkError, SIGN_UP_FAILED } from '../../../lib/auth-errors';
import { clearCredentials, holdCredentials } from '../../../lib/pending-credentials';
import { useForm } from '../../../lib/use-form';
import { withMatch, zodValidator, type Validator } from '../../../lib/validation';
import { register, signInWithEmail } from '../api/auth';
import { AuthLayout } from './AuthLayout';

const INITIAL = {
  name: '',
  surname: '',
  company: '',
  company_code: '',
  email: '',
  password: '',
  passwordRepeat: '',
  acceptTerms: false,
};
type Values = typeof INITIAL;

const validate: Validator<Values, ReturnType<typeof signUpSchema.parse>> = withMatch<
  Values,
  ReturnType<typeof signUpSchema.parse>
>(zodValidator(signUpSchema), 'passwordRepeat', 'password', MSG.passwordsSame);

export function SignUpPage() {
  const navigate = useNavigate();
  const auth = useAuth();
  const form = useForm<Values, ReturnType<typeof signUpSchema.parse>>(INITIAL, validate);

  const onSubmit = form.handleSubmit(async (data) => {
    let confirmed: boolean;
    try {
      ({ confirmed } = await register(data));
    } catch (err) {
      form.setServerError('email', isNetworkError(err) || !navigator.onLine ? NETWORK_ERROR_MESSAGE : SIGN_UP_FAILED);
      return;
    }
    holdCredentials({ email: data.email, password: data.password });
    if (!confirmed) {
      navigate('/signup/confirm', { state: { email: data.email } });
      return;
    }
    try {
      const outcome = await signInWithEmail(data.email, data.password);
      if (outcome === 'signedIn') {
        clearCredentials();
        await auth.refresh();
        return;
      }
    } catch {
      // fall through to the confirmation screen, which signs in with the held credentials
    }
    navigate('/signup/confirm', { state: { email: data.email } });
  });

  return (
    <AuthLayout
      title="Create your account"
      subtitle="Register your company and start capturing documents."
      footer={
        <>
          Already have an account? <Link to="/signin">Log in</Link>
        </>
      }
    >
      <form className="form" onSubmit={onSubmit} noValidate aria-busy={form.pending} data-testid="signup-form">
        <div className="form-grid">
          <TextField label="Name" autoComplete="given-name" {...form.text('name')} />
          <TextField label="Surname" autoComplete="family-name" {...form.text('surname')} />
          <TextField label="Company" autoComplete="organization" {...form.text('company')} />
          <TextField label="Company code" {...form.text('company_code')} />
        </div>
        <TextField label="Email" type="email" autoComplete="email" {...form.text('email')} />
        <div className="form-grid">
          <TextField label="Password" type="password" autoComplete="new-password" {...form.text('password')} />
          <TextField label="Repeat password" type="password" autoComplete="new-password" {...form.text('passwordRepeat')} />
        </div>
        <Checkbox label="I accept the terms and conditions and the privacy policy" {...form.checkbox('acceptTerms')} />
        <Button type="submit" block loading={form.pending}>
          REGISTER
        </Button>
      </form>
    </AuthLayout>
  );
}
