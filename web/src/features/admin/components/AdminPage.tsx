import { useId, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { businessMonth, monthsUpTo } from '../../../../../shared/business-time';
import { ADMIN_USAGE_MONTHS } from '../../../../../shared/schemas/admin';
import { Button } from '../../../components/ui/Button';
import { Icon } from '../../../components/ui/Icon';
import { useInfoPopup } from '../../../components/ui/InfoPopup';
import { ListMore } from '../../../components/ui/ListMore';
import { LoadingBlock } from '../../../components/ui/Spinner';
import { messageOf } from '../../../lib/api-error';
import { formatDate, formatMonth } from '../../../lib/format';
import { buildCsv, csvBlob } from '../../export/lib/csv';
import { downloadBlob } from '../../export/lib/download';
import { useAdminCompanies, useAdminStatistics } from '../api/admin';
import { ownerName, usageCell, usageTable } from '../lib/admin-format';

function Counter({ label, value, testId }: { label: string; value: number | undefined; testId: string }) {
  return (
    <section className="card admin-counter" data-testid={testId}>
      <span className="admin-counter-label">{label}</span>
      <strong className="admin-counter-value">{value === undefined ? '—' : value.toLocaleString('en-US')}</strong>
    </section>
  );
}

/**
 * The month whose usage the table shows, from the address (`?month=YYYY-MM`, kept on reload and Back): one of the
 * current month and the eleven before it; anything else is the current month (undefined: the server's current one).
 */
export function chosenMonth(param: string | null, months: readonly string[]): string | undefined {
  return param && months.includes(param) && param !== months[0] ? param : undefined;
}

/** /admin: platform counters and every company with this month's usage (or a past month's); more rows load on scroll. */
export function AdminPage() {
  const navigate = useNavigate();
  const monthId = useId();
  const [params, setParams] = useSearchParams();
  const months = monthsUpTo(businessMonth(new Date()), ADMIN_USAGE_MONTHS);
  const month = chosenMonth(params.get('month'), months);
  const stats = useAdminStatistics();
  const companies = useAdminCompanies(month);
  const rows = companies.data?.pages.flatMap((p) => p.items) ?? [];
  const info = useInfoPopup();
  const [downloading, setDownloading] = useState(false);

  /** Every company of the list (the pages not loaded yet too) with the shown month's usage, as a CSV file. */
  const downloadUsage = async () => {
    setDownloading(true);
    try {
      let result = companies;
      while (result.hasNextPage) {
        result = await companies.fetchNextPage();
        if (result.isError) throw result.error;
      }
      const all = result.data?.pages.flatMap((p) => p.items) ?? [];
      const shown = month ?? months[0]!;
      downloadBlob(csvBlob(buildCsv(usageTable(all, shown))), `usage-${shown}.csv`);
    } catch (error) {
      info.show(messageOf(error), 'error');
    } finally {
      setDownloading(false);
    }
  };

  return (
    <div className="admin-page" data-testid="admin-page">
      <div className="admin-counters">
        <Counter label="Customers" value={stats.data?.customers} testId="admin-customers" />
        <Counter label="Invoices" value={stats.data?.documents} testId="admin-invoices" />
      </div>
      <section className="card admin-table-card">
        <div className="admin-table-head">
          <label htmlFor={monthId} className="field-label">
            Month
          </label>
          <select
            id={monthId}
            name="month"
            className="input select admin-month"
            data-testid="admin-month"
            value={month ?? months[0]}
            onChange={(e) => setParams(e.target.value === months[0] ? {} : { month: e.target.value }, { replace: true })}
          >
            {months.map((m, i) => (
              <option key={m} value={m}>
                {i === 0 ? `${formatMonth(m)} (this month)` : formatMonth(m)}
              </option>
            ))}
          </select>
          <Button variant="secondary" className="admin-download" loading={downloading} disabled={companies.isPending} onClick={() => void downloadUsage()}>
            DOWNLOAD CSV
          </Button>
        </div>
        {companies.isPending ? (
          <LoadingBlock />
        ) : (
          <div className="doc-table-wrap">
            <table className="doc-table admin-table">
              <thead>
                <tr>
                  <th>Date</th>
                  <th>User</th>
                  <th>Company</th>
                  <th>Email</th>
                  <th className="col-number">Invoices per/mounth</th>
                  <th aria-label="Open" />
                </tr>
              </thead>
              <tbody>
                {rows.map((c) => (
                  <tr
                    key={c.company_id}
                    className="doc-row is-clickable"
                    data-testid="admin-company-row"
                    data-company-id={c.company_id}
                    tabIndex={0}
                    onClick={() => navigate(`/admin/${c.company_id}`)}
                    onKeyDown={(e) => {
                      if (e.key === 'Enter') navigate(`/admin/${c.company_id}`);
                    }}
                  >
                    <td className="col-date">{formatDate(c.created_at)}</td>
                    <td>{ownerName(c)}</td>
                    <td>
                      <strong>{c.name}</strong>
                    </td>
                    <td>{c.user.email}</td>
                    <td className="col-number" data-testid="admin-usage">
                      {usageCell(c)}
                    </td>
                    <td className="col-actions">
                      <Icon name="chevronRight" size={18} aria-hidden="true" />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            {rows.length === 0 && <p className="muted admin-empty">No companies yet</p>}
          </div>
        )}
        <ListMore list={companies} />
      </section>
    </div>
  );
}
