import { MENU_STATUS_LABELS } from '../lib/badge';

/** Titles of the signed-in screens that exist; the header shows them. */
const PAGE_TITLES: Record<string, string> = {
  '/dashboard': 'Dashboard',
  '/my-profile': 'My Profile',
  // Master data
  '/customers': 'Customers',
  '/suppliers': 'Suppliers',
  '/categories': 'Categories',
  '/items': 'Items',
  '/my-team': 'My Team',
};

/** The header title: document lists take their status title (inbox → Inbox, review → To Review, …). */
export function pageTitle(pathname: string): string {
  const path = pathname.replace(/\/+$/, '') || '/';
  const list = /^\/receipts\/([^/]+)$/.exec(path);
  if (list) return (MENU_STATUS_LABELS as Record<string, string>)[list[1]!] ?? 'Inbox';
  if (path.startsWith('/select-company/')) return 'Select company';
  if (path.startsWith('/edit-receipt/')) return 'Edit document';
  if (path === '/fields-configuration') return 'Fields configuration';
  // Platform admin and Settings
  if (path === '/admin' || path.startsWith('/admin/')) return 'Admin';
  if (path === '/settings') return 'Settings';
  if (path === '/integration') return 'Integration';
  // Google Drive and Dropbox imports: the folder screen and the authorisation return
  if (path.startsWith('/integration/')) return 'Integration';
  return PAGE_TITLES[path] ?? 'Dashboard';
}
