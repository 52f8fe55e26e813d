import { Navigate, useNavigate, useParams } from 'react-router-dom';
import type { AdminCompany } from '../../../../../shared/schemas/admin';
import { updateAvailableDocumentsSchema, updateVatAccountSchema } from '../../../../../shared/schemas/admin';
import { Button } from '../../../components/ui/Button';
import { Checkbox } from '../../../components/ui/Checkbox';
import { Icon } from '../../../components/ui/Icon';
import { useInfoPopup } from '../../../components/ui/InfoPopup';
import { LoadingBlock } from '../../../components/ui/Spinner';
import { TextField } from '../../../components/ui/TextField';
import { ApiError, messageOf } from '../../../lib/api-error';
import { formatDate, formatMonth } from '../../../lib/format';
import { useForm } from '../../../lib/use-form';
import { issuesToFieldErrors, type Validator } from '../../../lib/validation';
import { useAdminCompany, useAdminCompanyUsage, useUpdateAvailableDocuments, useUpdateVatAccount } from '../api/admin';
import { ownerName } from '../lib/admin-format';
import { countRequest } from '../lib/count-request';

export const SAVED = 'Saved';

type CountValues = { available_documents: string; reset: boolean };
type VatValues = { vat_account: string };

/** The count form uses the server's schema: digits only ('Not a number'), at most 5 characters. */
export const countValidator: Validator<CountValues, CountValues> = (values) => {
  const r = updateAvailableDocumentsSchema.safeParse({ available_documents: values.available_documents });
  return r.success ? { ok: true, data: values, errors: {} } : { ok: false, errors: issuesToFieldErrors(r.error.issues) };
};

export const vatValidator: Validator<VatValues, VatValues> = (values) => {
  const r = updateVatAccountSchema.safeParse(values);
  return r.success ? { ok: true, data: r.data, errors: {} } : { ok: false, errors: issuesToFieldErrors(r.error.issues) };
};

function CountForm({ company }: { company: AdminCompany }) {
  const update = useUpdateAvailableDocuments(company.company_id);
  const info = useInfoPopup();
  const form = useForm<CountValues, CountValues>({ available_documents: String(company.available_documents), reset: false }, countValidator);
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const saved = await update.mutateAsync(countRequest(company.available_documents, values));
      form.reset({ available_documents: String(saved.available_documents), reset: false });
      info.show(SAVED, 'success');
    } catch (err) {
      if (err instanceof ApiError && Object.keys(err.fieldErrors).length > 0) form.setServerErrors(err.fieldErrors);
      else info.show(messageOf(err), 'error');
      // Another admin changed the quota since this page was loaded: the page shows the current one (nothing was saved).
      if (err instanceof ApiError && err.status === 409) void update.reload();
    }
  });
  return (
    <form className="card form" onSubmit={onSubmit} noValidate aria-busy={form.pending} data-testid="admin-count-form">
      <div className="card-head">
        <h2>Documents per month</h2>
      </div>
      <TextField label="Documents available" inputMode="numeric" {...form.text('available_documents')} />
      <Checkbox label="Reset this month's usage" {...form.checkbox('reset')} />
      <div className="form-actions">
        <Button type="submit" loading={form.pending}>
          UPDATE
        </Button>
      </div>
    </form>
  );
}

function VatForm({ company }: { company: AdminCompany }) {
  const update = useUpdateVatAccount(company.company_id);
  const info = useInfoPopup();
  const form = useForm<VatValues, VatValues>({ vat_account: company.vat_account }, vatValidator);
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const saved = await update.mutateAsync(values);
      form.reset({ vat_account: saved.vat_account });
      info.show(SAVED, 'success');
    } catch (err) {
      if (err instanceof ApiError && Object.keys(err.fieldErrors).length > 0) form.setServerErrors(err.fieldErrors);
      else info.show(messageOf(err), 'error');
    }
  });
  return (
    <form className="card form" onSubmit={onSubmit} noValidate aria-busy={form.pending} data-testid="admin-vat-form">
      <div className="card-head">
        <h2>VAT account</h2>
      </div>
      <TextField label="VAT account" {...form.text('vat_account')} />
      <div className="form-actions">
        <Button type="submit" loading={form.pending}>
          UPDATE
        </Button>
      </div>
    </form>
  );
}

/**
 * The company's documents month by month (the quota counts "Documents"; "Documents available" is the quota the month
 * was counted against; "Duplicates" are those of a file it already had).
 */
function UsageByMonth({ companyId }: { companyId: string }) {
  const usage = useAdminCompanyUsage(companyId);
  return (
    <section className="card admin-usage" data-testid="admin-usage-by-month">
      <div className="card-head">
        <h2>Usage by month</h2>
      </div>
      {usage.isPending ? (
        <LoadingBlock />
      ) : usage.isError ? (
        <p className="muted">{messageOf(usage.error)}</p>
      ) : (
        <table className="doc-table admin-usage-table">
          <thead>
            <tr>
              <th>Month</th>
              <th className="col-number">Documents</th>
              <th className="col-number">Documents available</th>
              <th className="col-number">Duplicates</th>
            </tr>
          </thead>
          <tbody>
            {usage.data.items.map((m) => (
              <tr key={m.month} data-testid="admin-usage-month" data-month={m.month}>
                <td>{formatMonth(m.month)}</td>
                <td className="col-number">{m.used_documents}</td>
                <td className="col-number">{m.available_documents}</td>
                <td className="col-number">{m.duplicated_documents}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

/** /admin/{company_id}: one company's facts, its monthly quota and VAT account; an unknown company goes back to /admin. */
export function AdminCompanyPage() {
  const { companyId = '' } = useParams();
  const navigate = useNavigate();
  const company = useAdminCompany(companyId);
  if (company.isPending) return <LoadingBlock />;
  if (company.isError || !company.data) return <Navigate to="/admin" replace />;
  const c = company.data;
  return (
    <div className="admin-company" data-testid="admin-company">
      <div className="fields-config-head">
        <button type="button" className="icon-btn" aria-label="Back" onClick={() => navigate('/admin')}>
          <Icon name="chevronLeft" />
        </button>
        <h2>{c.name}</h2>
      </div>
      <div className="admin-company-layout">
        <div className="admin-company-main">
          <section className="card" data-testid="admin-company-facts">
            <dl className="facts admin-facts">
              <dt>Date</dt>
              <dd>{formatDate(c.created_at)}</dd>
              <dt>Company</dt>
              <dd>{c.name}</dd>
              <dt>User</dt>
              <dd>{ownerName(c)}</dd>
              <dt>Email</dt>
              <dd>{c.user.email}</dd>
              <dt>Documents used</dt>
              <dd data-testid="admin-documents-used">{c.used_documents}</dd>
              <dt>Documents available</dt>
              <dd data-testid="admin-documents-available">{c.available_documents}</dd>
            </dl>
          </section>
          <UsageByMonth companyId={c.company_id} />
        </div>
        <div className="admin-company-forms">
          <CountForm key={`count-${c.available_documents}`} company={c} />
          <VatForm key={`vat-${c.vat_account}`} company={c} />
        </div>
      </div>
    </div>
  );
}
