import { Link } from 'react-router-dom';
import { Button } from '../../../components/ui/Button';
import { Icon } from '../../../components/ui/Icon';

/** "<active company name> - <user full name>"; "All" replaces the company in the all-companies view. */
export function headerIdentity(companyLabel: string | undefined, userName: string): string {
  return [companyLabel, userName].filter((s) => Boolean(s && s.trim())).join(' - ');
}

/** The header's menu button (narrow screens): opens the side menu over the screen. */
export interface MenuButtonProps {
  open: boolean;
  onOpen(): void;
}

export function Header({
  title,
  company,
  userName,
  onSignOut,
  signingOut,
  menu,
}: {
  title: string;
  /** The active company's name ("All" in the all-companies view); undefined while it loads. */
  company: string | undefined;
  userName: string;
  onSignOut(): void;
  signingOut: boolean;
  /** Given on a narrow screen, where the side menu is closed until this button opens it. */
  menu?: MenuButtonProps;
}) {
  const identity = headerIdentity(company, userName);
  const companyShown = Boolean(company?.trim());
  const userShown = Boolean(userName.trim());
  return (
    <header className="topbar">
      {menu && (
        <button
          type="button"
          className="icon-btn topbar-menu"
          aria-label="Open menu"
          aria-expanded={menu.open}
          aria-controls="main-menu"
          data-testid="menu-button"
          onClick={menu.onOpen}
        >
          <Icon name="menu" size={22} />
        </button>
      )}
      <h1 className="topbar-title" data-testid="page-title">
        {title}
      </h1>
      <div className="topbar-right">
        {identity && (
          // a narrow screen shows the company first (the one a document goes to), the user's name in the room left
          <Link to="/my-profile" className="topbar-identity" data-testid="header-identity" title={identity}>
            <span className="avatar" aria-hidden="true">
              <Icon name="profile" size={16} />
            </span>
            <span className="topbar-identity-text">
              {companyShown && <span className="topbar-company">{company}</span>}
              {userShown && <span className="topbar-user">{companyShown ? ` - ${userName}` : userName}</span>}
            </span>
          </Link>
        )}
        <Button variant="ghost" className="topbar-signout" icon={<Icon name="signOut" size={18} />} onClick={onSignOut} loading={signingOut}>
          Sign Out
        </Button>
      </div>
    </header>
  );
}
