import { useMemo, useState } from 'react';
import type { Profile } from '../../../../../shared/schemas/user';
import { updateProfileSchema, type UpdateProfileInput } from '../../../../../shared/schemas/user';
import { Button } from '../../../components/ui/Button';
import { EditActions } from '../../../components/ui/EditActions';
import { Icon } from '../../../components/ui/Icon';
import { useInfoPopup } from '../../../components/ui/InfoPopup';
import { LoadingBlock } from '../../../components/ui/Spinner';
import { TextField } from '../../../components/ui/TextField';
import { ApiError, messageOf } from '../../../lib/api-error';
import { formatDate, formatDateTime, fullName } from '../../../lib/format';
import { useForm } from '../../../lib/use-form';
import { changedFields, issuesToFieldErrors, type Validator } from '../../../lib/validation';
import { useProfile, useUpdateProfile } from '../api/profile';
import { DELETE_ACCOUNT_EXPLANATION, DELETE_ACCOUNT_TITLE } from '../lib/delete-account';
import { ChangePasswordModal } from './ChangePasswordModal';
import { DeleteAccountModal } from './DeleteAccountModal';

export const PROFILE_FIELDS = ['name', 'surname', 'phone', 'address', 'city', 'country', 'post_code'] as const;
type ContactValues = Record<(typeof PROFILE_FIELDS)[number], string>;

export const PROFILE_SAVED = 'Your profile has been updated.';

export function contactValues(profile: Profile): ContactValues {
  return Object.fromEntries(PROFILE_FIELDS.map((f) => [f, profile[f] ?? ''])) as ContactValues;
}

/** Validates and returns only the changed fields (the only ones sent). */
export function profileValidator(initial: ContactValues): Validator<ContactValues, UpdateProfileInput> {
  return (values) => {
    const changes = changedFields(initial, values);
    const r = updateProfileSchema.safeParse(changes);
    if (r.success) return { ok: true, data: r.data, errors: {} };
    return { ok: false, errors: issuesToFieldErrors(r.error.issues) };
  };
}

function ContactForm({ profile }: { profile: Profile }) {
  const initial = useMemo(() => contactValues(profile), [profile]);
  const validate = useMemo(() => profileValidator(initial), [initial]);
  const form = useForm<ContactValues, UpdateProfileInput>(initial, validate);
  const update = useUpdateProfile();
  const info = useInfoPopup();
  const dirty = Object.keys(changedFields(initial, form.values)).length > 0;

  const onSubmit = form.handleSubmit(async (changes) => {
    if (Object.keys(changes).length === 0) return;
    try {
      const saved = await update.mutateAsync(changes);
      form.reset(saved && typeof saved === 'object' && 'id' in saved ? contactValues(saved) : form.values);
      info.show(PROFILE_SAVED, 'success');
    } catch (err) {
      if (err instanceof ApiError && Object.keys(err.fieldErrors).length > 0) form.setServerErrors(err.fieldErrors);
      else info.show(messageOf(err), 'error');
    }
  });

  return (
    <form className="card form" onSubmit={onSubmit} noValidate aria-busy={form.pending} data-testid="profile-form">
      <div className="card-head">
        <h2>Contact info</h2>
      </div>
      <div className="form-grid">
        <TextField label="Name" autoComplete="given-name" {...form.text('name')} />
        <TextField label="Surname" autoComplete="family-name" {...form.text('surname')} />
        <TextField label="Phone" type="tel" autoComplete="tel" {...form.text('phone')} />
        <TextField
          label="Email"
          name="email"
          type="email"
          value={profile.email}
          readOnly
          hint="The email is your login; it cannot be changed here."
        />
        <TextField label="Address" autoComplete="street-address" {...form.text('address')} />
        <TextField label="City" autoComplete="address-level2" {...form.text('city')} />
        <TextField label="Country" autoComplete="country-name" {...form.text('country')} />
        <TextField label="Post code" autoComplete="postal-code" {...form.text('post_code')} />
      </div>
      <EditActions dirty={dirty} pending={form.pending} onCancel={() => form.reset(initial)} />
    </form>
  );
}

export function MyProfilePage() {
  const profile = useProfile();
  const [changingPassword, setChangingPassword] = useState(false);
  const [deletingAccount, setDeletingAccount] = useState(false);

  if (profile.isPending) return <LoadingBlock label="Loading profile" />;
  if (profile.isError || !profile.data) return <p className="notice notice-error">Something went wrong</p>;
  const p = profile.data;

  return (
    <div className="profile-layout">
      <ContactForm key={p.id} profile={p} />
      <div className="profile-side">
        <section className="card profile-summary">
          <span className="profile-avatar" aria-hidden="true">
            {(p.name?.charAt(0) ?? '').toUpperCase()}
            {(p.surname?.charAt(0) ?? '').toUpperCase()}
          </span>
          <h2>{fullName(p)}</h2>
          <p className="muted">{p.email}</p>
          <dl className="facts">
            <dt>Member since</dt>
            <dd>{formatDate(p.created_at) || '—'}</dd>
            <dt>Last login</dt>
            <dd>{formatDateTime(p.last_login) || '—'}</dd>
          </dl>
        </section>
        <section className="card">
          <div className="card-head">
            <h2>
              <Icon name="lock" size={18} /> Password
            </h2>
          </div>
          <p className="muted">Use at least 8 characters with an uppercase letter, a lowercase letter and a number.</p>
          <Button variant="secondary" onClick={() => setChangingPassword(true)}>
            Change Password
          </Button>
        </section>
      </div>
      <section className="card profile-danger" aria-labelledby="delete-account-title" data-testid="delete-account-section">
        <div className="card-head">
          <h2 id="delete-account-title">{DELETE_ACCOUNT_TITLE}</h2>
        </div>
        <p className="muted">{DELETE_ACCOUNT_EXPLANATION}</p>
        <Button variant="danger" onClick={() => setDeletingAccount(true)}>
          DELETE ACCOUNT
        </Button>
      </section>
      {changingPassword && <ChangePasswordModal email={p.email} onClose={() => setChangingPassword(false)} />}
      {deletingAccount && <DeleteAccountModal email={p.email} onClose={() => setDeletingAccount(false)} />}
    </div>
  );
}
