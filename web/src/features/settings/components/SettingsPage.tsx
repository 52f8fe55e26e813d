import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { updateCompanySchema, type UpdateCompanyInput } from '../../../../../shared/schemas/admin';
import type { Company } from '../../../../../shared/schemas/company';
import { Button } from '../../../components/ui/Button';
import { EditActions } from '../../../components/ui/EditActions';
import { Icon, type IconName } from '../../../components/ui/Icon';
import { useInfoPopup } from '../../../components/ui/InfoPopup';
import { LoadingBlock } from '../../../components/ui/Spinner';
import { TextField } from '../../../components/ui/TextField';
import { ApiError, messageOf } from '../../../lib/api-error';
import { formatDate } from '../../../lib/format';
import { companyRoleLabel } from '../../../lib/roles';
import { useForm } from '../../../lib/use-form';
import { changedFields, issuesToFieldErrors, type Validator } from '../../../lib/validation';
import { useActiveCompanyStore } from '../../../app/active-company';
import { useActiveCompany } from '../../companies/api/companies';
import { useProfile } from '../../profile/api/profile';
import { useOwnCompanyUser, useUpdateCompany } from '../api/settings';
import { EmailInSendersForm, EmailInSendersReadOnly } from './EmailInSenders';
import { companyChoiceLabel } from '../../companies/lib/company-label';
import { MailReceived } from './MailReceived';

export const COMPANY_SAVED = 'Company details saved.';
export const COPIED = 'Copied';

type CompanyValues = { name: string; code: string };

export const companyValidator: Validator<CompanyValues, UpdateCompanyInput> = (values) => {
  const r = updateCompanySchema.safeParse(values);
  return r.success ? { ok: true, data: r.data, errors: {} } : { ok: false, errors: issuesToFieldErrors(r.error.issues) };
};

/** Copies a text to the clipboard (the selection fallback where the Clipboard API is not allowed). */
async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = document.createElement('textarea');
    area.value = text;
    document.body.appendChild(area);
    area.select();
    const ok = document.execCommand('copy');
    area.remove();
    return ok;
  }
}

/**
 * A value to read and copy (an address): shown as text that wraps, so a long one is read whole on a phone too, with a
 * Copy button.
 */
function CopyField({ label, value, testId }: { label: string; value: string; testId: string }) {
  const info = useInfoPopup();
  const labelId = useId();
  return (
    <div className="settings-copy">
      <div className="field">
        <span id={labelId} className="field-label">
          {label}
        </span>
        <output className="input settings-copy-value" aria-labelledby={labelId} data-testid={testId}>
          {value}
        </output>
      </div>
      <Button
        variant="secondary"
        icon={<Icon name="copy" size={16} />}
        aria-label={`Copy ${label.toLowerCase()}`}
        onClick={() => void copyText(value).then((ok) => info.show(ok ? COPIED : messageOf(null), ok ? 'success' : 'error'))}
      >
        Copy
      </Button>
    </div>
  );
}

function CompanyForm({ company }: { company: Company }) {
  const initial = useMemo(() => ({ name: company.name, code: company.code }), [company.name, company.code]);
  const form = useForm<CompanyValues, UpdateCompanyInput>(initial, companyValidator);
  const update = useUpdateCompany(company.company_id);
  const info = useInfoPopup();
  const editable = company.role === 'admin';
  const dirty = Object.keys(changedFields(initial, form.values)).length > 0;
  // The company's name or code changed (saved here, or elsewhere and told live): an untouched form shows the new
  // values; one being edited keeps what is typed. The form stays mounted, so the focus stays where it was.
  const applied = useRef(initial);
  useEffect(() => {
    if (applied.current === initial) return;
    const untouched = Object.keys(changedFields(applied.current, form.values)).length === 0;
    applied.current = initial;
    if (untouched) form.reset(initial);
  }, [initial, form]);
  const onSubmit = form.handleSubmit(async (input) => {
    try {
      const saved = await update.mutateAsync(input);
      form.reset({ name: saved.name, code: saved.code });
      info.show(COMPANY_SAVED, 'success');
    } catch (err) {
      if (err instanceof ApiError && Object.keys(err.fieldErrors).length > 0) form.setServerErrors(err.fieldErrors);
      else info.show(messageOf(err), 'error');
    }
  });
  return (
    <form className="card form" onSubmit={onSubmit} noValidate aria-busy={form.pending} data-testid="settings-company-form">
      <div className="card-head">
        <h2>
          <Icon name="building" size={18} /> Company
        </h2>
        {!editable && <span className="pill pill-neutral">Read only</span>}
      </div>
      <div className="form-grid">
        <TextField label="Company name" readOnly={!editable} {...form.text('name')} />
        <TextField label="Company code" readOnly={!editable} {...form.text('code')} />
      </div>
      <EditActions dirty={editable && dirty} pending={form.pending} onCancel={() => form.reset(initial)} />
    </form>
  );
}

/**
 * The company's Email-in: its address, the member's own address where they have one, and the senders it takes mail
 * from (company admins edit the list; a basic member reads it).
 */
function EmailInCard({ company }: { company: Company }) {
  // A member's own address (mail to it becomes theirs), where it is not the company's (its creator's until set)
  const own = useOwnCompanyUser(company.company_id).data?.email;
  return (
    <section className="card" data-testid="settings-email-in-card" aria-labelledby="settings-email-in-title">
      <div className="card-head">
        <h2 id="settings-email-in-title">
          <Icon name="inbox" size={18} /> Email-in
        </h2>
      </div>
      <CopyField label="Email-in address" value={company.email} testId="settings-email-in" />
      <p className="muted settings-hint">Documents e-mailed to this address are added to the company's inbox.</p>
      {own && own !== company.email && (
        <>
          <CopyField label="Your Email-in address" value={own} testId="settings-own-email-in" />
          <p className="muted settings-hint">Documents e-mailed to this address are added to the company's inbox, with you as their owner.</p>
        </>
      )}
      {company.role === 'admin' ? (
        <EmailInSendersForm key={`${company.company_id}:${company.email_in_senders.join(',')}`} company={company} />
      ) : (
        <EmailInSendersReadOnly senders={company.email_in_senders} />
      )}
    </section>
  );
}

function SettingsLink({ to, icon, label, text, onFollow }: { to: string; icon: IconName; label: string; text: string; onFollow(): void }) {
  return (
    <li>
      <Link to={to} className="settings-link" onClick={onFollow}>
        <Icon name={icon} />
        <span>
          <strong>{label}</strong>
          <span className="muted">{text}</span>
        </span>
        <Icon name="chevronRight" size={18} />
      </Link>
    </li>
  );
}

/**
 * /settings: the company's name and code (company admins edit them), its Email-in address with the senders it takes
 * mail from (company admins edit the list) and the mail received there, links to the admin screens, and the user's own global email. A basic user sees the same, read-only and without links.
 */
export function SettingsPage() {
  const view = useActiveCompany();
  const store = useActiveCompanyStore();
  const profile = useProfile();
  const [chosen, setChosen] = useState<string | null>(null);
  if (view.isLoading || profile.isPending) return <LoadingBlock />;
  const company = view.companies.find((c) => c.company_id === chosen) ?? view.active;
  if (!company) return <p className="notice">No companies yet</p>;
  const isAdmin = company.role === 'admin';
  // The administration screens work on the active company: following a link makes the chosen company active
  // (and leaves the all-companies view), so they show the company this page shows.
  const follow = () => {
    if (company.company_id !== view.active?.company_id || view.allCompanies) {
      store.setCompany(company.company_id);
      store.setAllCompanies(false);
    }
  };
  // A document opens with its company (?company_id); like the documents list, opening one of another company
  // makes that company active, so the screens it leads to (Back to the inbox) show it.
  const openDocument = () => {
    if (company.company_id !== view.active?.company_id) store.setCompany(company.company_id);
  };

  return (
    <div className="settings-page" data-testid="settings-page">
      <div className="settings-main">
        {view.companies.length > 1 && (
          <div className="field settings-company-select">
            <label className="field-label" htmlFor="settings-company">
              Company
            </label>
            <select id="settings-company" className="input select" value={company.company_id} onChange={(e) => setChosen(e.target.value)}>
              {view.companies.map((c) => (
                <option key={c.company_id} value={c.company_id}>
                  {companyChoiceLabel(c, view.companies)}
                </option>
              ))}
            </select>
          </div>
        )}
        <CompanyForm key={`company:${company.company_id}`} company={company} />
        <EmailInCard company={company} />
        <MailReceived key={company.company_id} companyId={company.company_id} onOpenDocument={openDocument} />
        {isAdmin && (
          <section className="card" data-testid="settings-links">
            <div className="card-head">
              <h2>
                <Icon name="settings" size={18} /> Administration
              </h2>
            </div>
            <ul className="settings-links">
              <SettingsLink to="/fields-configuration" icon="categories" label="Fields configuration" text="Fields captured per document" onFollow={follow} />
              <SettingsLink to="/my-team" icon="team" label="My Team" text="Invite colleagues, roles" onFollow={follow} />
              <SettingsLink to="/integration" icon="integration" label="Integration" text="Exports and imports" onFollow={follow} />
            </ul>
          </section>
        )}
      </div>
      <aside className="settings-side">
        <section className="card" data-testid="settings-account">
          <div className="card-head">
            <h2>
              <Icon name="profile" size={18} /> Your account
            </h2>
          </div>
          {profile.data && <CopyField label="Login email" value={profile.data.global_email} testId="settings-global-email" />}
          <dl className="facts">
            <dt>Role</dt>
            <dd data-testid="settings-role">{companyRoleLabel(company, profile.data?.email) ?? ''}</dd>
            <dt>Company created</dt>
            <dd>{formatDate(company.created_at) || '—'}</dd>
            <dt>Documents this month</dt>
            <dd>
              {company.used_documents_per_month} / {company.available_documents}
            </dd>
          </dl>
        </section>
      </aside>
    </div>
  );
}
