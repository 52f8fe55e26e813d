import { useState } from 'react';
import { NavLink, useLocation } from 'react-router-dom';
import { CountBadge } from '../../../components/ui/Badge';
import { Icon, type IconName } from '../../../components/ui/Icon';
import { Logo } from '../../../components/ui/Logo';
import { MENU_STATUSES, MENU_STATUS_LABELS, type MenuStatus } from '../../../lib/badge';

const STATUS_ICONS: Record<MenuStatus, IconName> = {
  inbox: 'inbox',
  processing: 'processing',
  review: 'review',
  ready: 'ready',
  archive: 'archive',
  unassigned: 'unassigned',
  rejected: 'rejected',
  saving: 'saving',
  failed: 'failed',
};

export interface SideMenuProps {
  counts: Record<MenuStatus, number>;
  showTeam: boolean;
  showIntegration: boolean;
  showAdmin: boolean;
  collapsed: boolean;
  onToggleCollapsed(): void;
}

function Item({ to, icon, label, collapsed }: { to: string; icon: IconName; label: string; collapsed: boolean }) {
  return (
    <li>
      <NavLink to={to} className="nav-link" title={collapsed ? label : undefined}>
        <Icon name={icon} />
        <span className="nav-label">{label}</span>
      </NavLink>
    </li>
  );
}

export function SideMenu({ counts, showTeam, showIntegration, showAdmin, collapsed, onToggleCollapsed }: SideMenuProps) {
  const location = useLocation();
  const [receiptsOpen, setReceiptsOpen] = useState(true);
  const inReceipts = location.pathname.startsWith('/receipts/');

  return (
    <nav className={`sidenav ${collapsed ? 'is-collapsed' : ''}`} aria-label="Main menu" data-testid="side-menu">
      <div className="sidenav-top">
        <Logo compact={collapsed} inverted />
        <button
          type="button"
          className="icon-btn sidenav-toggle"
          onClick={onToggleCollapsed}
          aria-label={collapsed ? 'Expand menu' : 'Collapse menu'}
          aria-expanded={!collapsed}
        >
          <Icon name={collapsed ? 'chevronRight' : 'chevronLeft'} size={18} />
        </button>
      </div>
      <ul className="nav-list">
        <Item to="/dashboard" icon="dashboard" label="Dashboard" collapsed={collapsed} />
        <li>
          <button
            type="button"
            className={`nav-link nav-group ${inReceipts ? 'active-group' : ''}`}
            aria-expanded={receiptsOpen}
            aria-controls="nav-receipts"
            onClick={() => setReceiptsOpen((v) => !v)}
            title={collapsed ? 'Receipts' : undefined}
          >
            <Icon name="receipt" />
            <span className="nav-label">Receipts</span>
            <Icon name="chevronDown" size={16} className={`nav-caret ${receiptsOpen ? 'open' : ''}`} />
          </button>
          {receiptsOpen && (
            <ul className="nav-sublist" id="nav-receipts">
              {MENU_STATUSES.map((status) => (
                <li key={status}>
                  <NavLink
                    to={`/receipts/${status}`}
                    className="nav-link nav-sublink"
                    title={collapsed ? `${MENU_STATUS_LABELS[status]} (${counts[status]})` : undefined}
                  >
                    {collapsed && <Icon name={STATUS_ICONS[status]} size={18} />}
                    <span className="nav-label">{MENU_STATUS_LABELS[status]}</span>
                    {!collapsed && <CountBadge count={counts[status]} testId={`badge-${status}`} />}
                  </NavLink>
                </li>
              ))}
            </ul>
          )}
        </li>
        <Item to="/customers" icon="customers" label="Customers" collapsed={collapsed} />
        <Item to="/suppliers" icon="suppliers" label="Suppliers" collapsed={collapsed} />
        <Item to="/categories" icon="categories" label="Categories" collapsed={collapsed} />
        <Item to="/items" icon="items" label="Items" collapsed={collapsed} />
        <li className="nav-divider" role="separator" />
        <Item to="/my-profile" icon="profile" label="My Profile" collapsed={collapsed} />
        {showTeam && <Item to="/my-team" icon="team" label="My Team" collapsed={collapsed} />}
        {showIntegration && <Item to="/integration" icon="integration" label="Integration" collapsed={collapsed} />}
        {showAdmin && <Item to="/admin" icon="admin" label="Admin" collapsed={collapsed} />}
        <Item to="/settings" icon="settings" label="Settings" collapsed={collapsed} />
      </ul>
    </nav>
  );
}
