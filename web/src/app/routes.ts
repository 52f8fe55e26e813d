/** Titles of the signed-in screens that exist; the header shows them. */
const PAGE_TITLES: Record<string, string> = {
  '/dashboard': 'Dashboard',
  '/my-profile': 'My Profile',
};

export function pageTitle(pathname: string): string {
  return PAGE_TITLES[pathname.replace(/\/+$/, '') || '/'] ?? 'Dashboard';
}
