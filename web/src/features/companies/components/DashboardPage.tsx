import { useState } from 'react';
import { Link } from 'react-router-dom';
import type { Company } from '../../../../../shared/schemas/company';
import { Button } from '../../../components/ui/Button';
import { Checkbox } from '../../../components/ui/Checkbox';
import { Icon } from '../../../components/ui/Icon';
import { LoadingBlock } from '../../../components/ui/Spinner';
import { useProfile } from '../../profile/api/profile';
import { useActiveCompany } from '../api/companies';
import { AddCompanyModal } from './AddCompanyModal';
import { CompanyCard } from './CompanyCard';
import { DeleteCompanyModal } from './DeleteCompanyModal';

export const APP_STORE_URL = 'https://apps.apple.com/';
export const GOOGLE_PLAY_URL = 'https://play.google.com/store/apps';

function FreeAppCard() {
  return (
    <article className="card promo-card" data-testid="free-app-card">
      <span className="promo-icon" aria-hidden="true">
        <Icon name="phone" size={26} />
      </span>
      <div className="promo-body">
        <h3>Get the Free App</h3>
        <p>Snap receipts the moment you get them. They land in your inbox and are recognised automatically.</p>
        <div className="store-links">
          <a className="store-link" href={APP_STORE_URL} target="_blank" rel="noreferrer">
            <small>Download on the</small>
            App Store
          </a>
          <a className="store-link" href={GOOGLE_PLAY_URL} target="_blank" rel="noreferrer">
            <small>Get it on</small>
            Google Play
          </a>
        </div>
      </div>
    </article>
  );
}

export function DashboardPage() {
  const view = useActiveCompany();
  const profile = useProfile();
  const [adding, setAdding] = useState(false);
  const [deleting, setDeleting] = useState<Company | null>(null);
  const activeId = view.active?.company_id;

  return (
    <div className="dashboard">
      <section className="section" aria-labelledby="companies-heading">
        <div className="section-head">
          <h2 id="companies-heading">My companies</h2>
          <div className="section-actions">
            {view.companies.length > 1 && (
              <Checkbox
                name="all_companies"
                label="VIEW ALL COMPANIES"
                checked={view.allCompanies}
                onChange={(e) => view.setAllCompanies(e.target.checked)}
              />
            )}
            <Button icon={<Icon name="plus" size={18} />} onClick={() => setAdding(true)}>
              ADD COMPANY
            </Button>
          </div>
        </div>
        {view.isLoading ? (
          <LoadingBlock label="Loading companies" />
        ) : view.isError ? (
          <p className="notice notice-error">Something went wrong</p>
        ) : view.companies.length === 0 ? (
          <div className="empty-state" data-testid="companies-empty">
            <Icon name="building" size={36} />
            <p>No companies yet</p>
          </div>
        ) : (
          <div className="card-grid">
            {view.companies.map((company) => {
              const isActive = company.company_id === activeId;
              return (
                <CompanyCard
                  key={company.company_id}
                  company={company}
                  // the all-companies view works in every company: no card is the one worked in
                  active={isActive && !view.allCompanies}
                  userEmail={profile.data?.email}
                  onSelect={() => view.setActive(company.company_id)}
                  onDelete={!isActive && company.role === 'admin' ? () => setDeleting(company) : undefined}
                />
              );
            })}
          </div>
        )}
      </section>

      <section className="section" aria-labelledby="people-heading">
        <div className="section-head">
          <h2 id="people-heading">People</h2>
        </div>
        <div className="card-grid card-grid-start">
          {view.isCompanyAdmin && (
            // rules.md 6: the admin's Add a Company Employee card and its 'Add a user' link, which covers the card.
            <article className="card action-card" data-testid="add-employee-card">
              <span className="action-icon" aria-hidden="true">
                <Icon name="userPlus" size={26} />
              </span>
              <span className="action-body">
                <strong>Add a Company Employee</strong>
                <span>Invite a colleague to upload, review and export documents.</span>
                <Link className="action-link" to="/my-team" state={{ addUser: true }}>
                  Add a user
                </Link>
              </span>
            </article>
          )}
          <FreeAppCard />
        </div>
      </section>

      {adding && <AddCompanyModal onClose={() => setAdding(false)} />}
      {deleting && <DeleteCompanyModal company={deleting} onClose={() => setDeleting(null)} />}
    </div>
  );
}
