import type { Company } from '../../../../../shared/schemas/company';
import { Pill } from '../../../components/ui/Badge';
import { Icon } from '../../../components/ui/Icon';
import { companyRoleLabel } from '../../../lib/roles';

/** Company names above 20 characters use a smaller font (rules.md 9). */
export const LONG_NAME_CHARS = 20;

export function usagePercent(used: number, available: number): number {
  if (!available || available <= 0) return used > 0 ? 100 : 0;
  return Math.min(100, Math.max(0, Math.round((used / available) * 100)));
}

export function CompanyCard({
  company,
  active,
  userEmail,
  onSelect,
  onDelete,
}: {
  company: Company;
  active: boolean;
  userEmail: string | undefined;
  onSelect(): void;
  onDelete?: () => void;
}) {
  const used = company.used_documents ?? 0;
  const available = company.available_documents ?? 0;
  const pct = usagePercent(used, available);
  const tone = pct >= 90 ? 'red' : pct >= 70 ? 'orange' : 'blue';
  const roleLabel = companyRoleLabel(company, userEmail);
  return (
    <article
      className={`company-card ${active ? 'is-active' : ''}`}
      data-testid="company-card"
      data-company-id={company.company_id}
      aria-current={active ? 'true' : undefined}
    >
      <button type="button" className="company-card-main" onClick={onSelect} aria-label={`Open ${company.name}`}>
        <span className="company-card-head">
          <span className="company-avatar" aria-hidden="true">
            {company.name.trim().charAt(0).toUpperCase() || '?'}
          </span>
          <span className="company-ident">
            <span className={`company-name ${company.name.length > LONG_NAME_CHARS ? 'is-long' : ''}`}>{company.name}</span>
            <span className="company-code">Code: {company.code}</span>
          </span>
        </span>
        <span className="company-meta">
          {roleLabel && <Pill tone={company.role === 'admin' ? 'blue' : 'neutral'}>{roleLabel}</Pill>}
          {active && <Pill tone="green">Active</Pill>}
        </span>
        <span className="company-usage">
          <span className="company-usage-label">
            <span>Documents</span>
            <span data-testid="company-usage">
              {used} / {available}
            </span>
          </span>
          <span className="progress" aria-hidden="true">
            <span className={`progress-bar progress-${tone}`} style={{ width: `${pct}%` }} />
          </span>
        </span>
      </button>
      {onDelete && (
        <button
          type="button"
          className="icon-btn company-delete"
          onClick={onDelete}
          aria-label={`Delete ${company.name}`}
          title="Delete company"
        >
          <Icon name="trash" size={18} />
        </button>
      )}
    </article>
  );
}
