import { Suspense, useEffect, useMemo, useState } from 'react';
import { Outlet, useLocation } from 'react-router-dom';
import { useActiveCompanyStore } from '../../../app/active-company';
import { useAuth } from '../../../app/auth';
import { pageTitle } from '../../../app/routes';
import { menuCounts } from '../../../lib/badge';
import { fullName } from '../../../lib/format';
import { LoadingBlock } from '../../../components/ui/Spinner';
import { useFocusRescue } from '../../../components/ui/focus';
import { useActiveCompany } from '../../companies/api/companies';
import { LiveChannel } from '../../live/components/LiveChannel';
import { useTotalDocuments } from '../../receipts/api/receipts';
import { useProfile } from '../../profile/api/profile';
import { Header, headerIdentity } from './Header';
import { SideMenu } from './SideMenu';

/** The signed-in frame: collapsible side menu, header with title, identity and Sign Out. */
export function AppShell() {
  const location = useLocation();
  const auth = useAuth();
  const store = useActiveCompanyStore();
  const profile = useProfile();
  const view = useActiveCompany();
  const [collapsed, setCollapsed] = useState(false);
  const [signingOut, setSigningOut] = useState(false);
  // a control that leaves the page (or is disabled) while focused gives the focus to a neighbour, never to <body>
  useFocusRescue();

  const companyIds = useMemo(() => view.companies.map((c) => c.company_id), [view.companies]);
  useEffect(() => {
    if (!view.isLoading && !view.isError) store.reconcile(companyIds);
  }, [view.isLoading, view.isError, companyIds, store]);

  // GET /receipts/total-documents (kept current by the live channel); the companies' counts until it answers
  const totals = useTotalDocuments();
  const counts = useMemo(
    () =>
      menuCounts(
        totals.data ? [totals.data] : view.allCompanies ? view.companies.map((c) => c.counts) : view.active ? [view.active.counts] : [],
      ),
    [totals.data, view.allCompanies, view.companies, view.active],
  );

  const title = pageTitle(location.pathname);
  useEffect(() => {
    document.title = `${title} · Receipts Capture`;
  }, [title]);

  const identity = headerIdentity(view.allCompanies ? 'All' : view.active?.name, fullName(profile.data));

  const onSignOut = async () => {
    setSigningOut(true);
    await auth.signOut();
  };

  return (
    <div className={`app-shell ${collapsed ? 'menu-collapsed' : ''}`}>
      {/* The first stop of Tab: past the side menu and the header to the screen's content (shown when focused). */}
      <a
        className="skip-link"
        href="#main"
        data-testid="skip-link"
        onClick={(e) => {
          // the focus (not only the scroll) moves: the next Tab goes on from the content's start
          e.preventDefault();
          document.getElementById('main')?.focus();
        }}
      >
        Skip to content
      </a>
      <LiveChannel />
      <SideMenu
        counts={counts}
        showTeam={view.isCompanyAdmin}
        showIntegration={!view.allCompanies && view.active?.role === 'admin'}
        showAdmin={profile.data?.is_admin === true}
        collapsed={collapsed}
        onToggleCollapsed={() => setCollapsed((v) => !v)}
      />
      <div className="app-main">
        <Header title={title} identity={identity} onSignOut={() => void onSignOut()} signingOut={signingOut} />
        <main className="page" id="main" tabIndex={-1}>
          {/* Screens are loaded on first use (app/router.tsx): the frame stays while a screen's code arrives. */}
          <Suspense fallback={<LoadingBlock />}>
            <Outlet />
          </Suspense>
        </main>
      </div>
    </div>
  );
}
