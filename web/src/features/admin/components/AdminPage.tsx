import { useNavigate } from 'react-router-dom';
import { Icon } from '../../../components/ui/Icon';
import { ListMore } from '../../../components/ui/ListMore';
import { LoadingBlock } from '../../../components/ui/Spinner';
import { formatDate } from '../../../lib/format';
import { useAdminCompanies, useAdminStatistics } from '../api/admin';
import { ownerName, usageCell } from '../lib/admin-format';

function Counter({ label, value, testId }: { label: string; value: number | undefined; testId: string }) {
  return (
    <section className="card admin-counter" data-testid={testId}>
      <span className="admin-counter-label">{label}</span>
      <strong className="admin-counter-value">{value === undefined ? '—' : value.toLocaleString('en-US')}</strong>
    </section>
  );
}

/** /admin: platform counters and every company with this month's usage; more rows load on scroll. */
export function AdminPage() {
  const navigate = useNavigate();
  const stats = useAdminStatistics();
  const companies = useAdminCompanies();
  const rows = companies.data?.pages.flatMap((p) => p.items) ?? [];

  return (
    <div className="admin-page" data-testid="admin-page">
      <div className="admin-counters">
        <Counter label="Customers" value={stats.data?.customers} testId="admin-customers" />
        <Counter label="Invoices" value={stats.data?.documents} testId="admin-invoices" />
      </div>
      <section className="card admin-table-card">
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
