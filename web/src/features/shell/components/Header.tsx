import { Link } from 'react-router-dom';
import { Button } from '../../../components/ui/Button';
import { Icon } from '../../../components/ui/Icon';

/** "<active company name> - <user full name>"; "All" replaces the company in the all-companies view. */
export function headerIdentity(companyLabel: string | undefined, userName: string): string {
  return [companyLabel, userName].filter((s) => Boolean(s && s.trim())).join(' - ');
}

export function Header({
  title,
  identity,
  onSignOut,
  signingOut,
}: {
  title: string;
  identity: string;
  onSignOut(): void;
  signingOut: boolean;
}) {
  return (
    <header className="topbar">
      <h1 className="topbar-title" data-testid="page-title">
        {title}
      </h1>
      <div className="topbar-right">
        {identity && (
          <Link to="/my-profile" className="topbar-identity" data-testid="header-identity">
            <span className="avatar" aria-hidden="true">
              <Icon name="profile" size={16} />
            </span>
            <span>{identity}</span>
          </Link>
        )}
        <Button variant="ghost" icon={<Icon name="signOut" size={18} />} onClick={onSignOut} loading={signingOut}>
          Sign Out
        </Button>
      </div>
    </header>
  );
}
