import { forwardRef, useState } from 'react';
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
  /**
   * A narrow screen: the menu is an overlay (labels and counts shown, never collapsed) with a Close button, and
   * `onClose` is called on it; `onNavigate` on a choice of a screen (the one shown included).
   */
  overlay?: { onClose(): void; onNavigate(): void };
}

function Item({ to, icon, label, collapsed, onNavigate }: { to: string; icon: IconName; label: string; collapsed: boolean; onNavigate?: () => void }) {
  return (
    <li>
      <NavLink to={to} className="nav-link" title={collapsed ? label : undefined} onClick={onNavigate}>
        <Icon name={icon} />
        <span className="nav-label">{label}</span>
      </NavLink>
    </li>
  );
}

export const SideMenu = forwardRef<HTMLElement, SideMenuProps>(function SideMenu(
  { counts, showTeam, showIntegration, showAdmin, collapsed: collapsedWide, onToggleCollapsed, overlay },
  ref,
) {
  const location = useLocation();
  const [receiptsOpen, setReceiptsOpen] = useState(true);
  const inReceipts = location.pathname.startsWith('/receipts/');
  // the overlay shows the labels and counts: a touch screen shows no hover titles
  const collapsed = overlay ? false : collapsedWide;
  const onNavigate = overlay?.onNavigate;

  return (
    <nav ref={ref} id="main-menu" className={`sidenav ${collapsed ? 'is-collapsed' : ''}`} aria-label="Main menu" data-testid="side-menu">
      <div className="sidenav-top">
        <Logo compact={collapsed} inverted />
        {overlay ? (
          <button type="button" className="icon-btn sidenav-toggle" onClick={overlay.onClose} aria-label="Close menu">
            <Icon name="close" size={20} />
          </button>
        ) : (
          <button
            type="button"
            className="icon-btn sidenav-toggle"
            onClick={onToggleCollapsed}
            aria-label={collapsed ? 'Expand menu' : 'Collapse menu'}
            aria-expanded={!collapsed}
          >
            <Icon name={collapsed ? 'chevronRight' : 'chevronLeft'} size={18} />
          </button>
        )}
      </div>
      <ul className="nav-list">
        <Item to="/dashboard" icon="dashboard" label="Dashboard" collapsed={collapsed} onNavigate={onNavigate} />
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
                    onClick={onNavigate}
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
        <Item to="/customers" icon="customers" label="Customers" collapsed={collapsed} onNavigate={onNavigate} />
        <Item to="/suppliers" icon="suppliers" label="Suppliers" collapsed={collapsed} onNavigate={onNavigate} />
        <Item to="/categories" icon="categories" label="Categories" collapsed={collapsed} onNavigate={onNavigate} />
        <Item to="/items" icon="items" label="Items" collapsed={collapsed} onNavigate={onNavigate} />
        <li className="nav-divider" role="separator" />
        <Item to="/my-profile" icon="profile" label="My Profile" collapsed={collapsed} onNavigate={onNavigate} />
        {showTeam && <Item to="/my-team" icon="team" label="My Team" collapsed={collapsed} onNavigate={onNavigate} />}
        {showIntegration && <Item to="/integration" icon="integration" label="Integration" collapsed={collapsed} onNavigate={onNavigate} />}
        {showAdmin && <Item to="/admin" icon="admin" label="Admin" collapsed={collapsed} onNavigate={onNavigate} />}
        <Item to="/settings" icon="settings" label="Settings" collapsed={collapsed} onNavigate={onNavigate} />
      </ul>
    </nav>
  );
});
