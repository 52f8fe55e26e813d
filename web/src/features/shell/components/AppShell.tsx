import { Suspense, useEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { Outlet, useLocation } from 'react-router-dom';
import { useActiveCompanyStore } from '../../../app/active-company';
import { useAuth } from '../../../app/auth';
import { pageTitle } from '../../../app/routes';
import { menuCounts } from '../../../lib/badge';
import { fullName } from '../../../lib/format';
import { LoadingBlock } from '../../../components/ui/Spinner';
import { useDialogLayer } from '../../../components/ui/dialog-layer';
import { useFocusRescue } from '../../../components/ui/focus';
import { useActiveCompany } from '../../companies/api/companies';
import { activeCompanyGoneNotice } from '../../companies/lib/company-gone';
import { useInfoPopup } from '../../../components/ui/InfoPopup';
import type { Company } from '../../../../../shared/schemas/company';
import { LiveChannel } from '../../live/components/LiveChannel';
import { useTotalDocuments } from '../../receipts/api/receipts';
import { useDeletingOwnAccount, useProfile } from '../../profile/api/profile';
import { useNarrowScreen } from '../lib/narrow-screen';
import { Header } from './Header';
import { SideMenu } from './SideMenu';

/**
 * The side menu opened over a narrow screen: a modal layer (the focus moves in, Tab stays in it, Escape closes it)
 * with a backdrop that closes it on a tap. Closed by a choice of a screen, the focus goes to that screen's content;
 * else back to the menu button.
 */
function MenuOverlay({ menuRef, onClose, chosen }: { menuRef: RefObject<HTMLElement | null>; onClose(): void; chosen: RefObject<boolean> }) {
  useDialogLayer(menuRef, onClose, 'first', () => (chosen.current ? document.getElementById('main') : undefined));
  return <div className="sidenav-backdrop" aria-hidden="true" data-testid="menu-backdrop" onClick={onClose} />;
}

/**
 * The signed-in frame: side menu, header with title, identity and Sign Out. A wide window keeps the menu beside
 * the content (collapsible to icons); a narrow one (a phone) starts with it closed, the header's menu button
 * opening it over the screen.
 */
export function AppShell() {
  const location = useLocation();
  const auth = useAuth();
  const store = useActiveCompanyStore();
  const profile = useProfile();
  const view = useActiveCompany();
  const [collapsed, setCollapsed] = useState(false);
  const narrow = useNarrowScreen();
  const [menuOpen, setMenuOpen] = useState(false);
  const menuRef = useRef<HTMLElement>(null);
  const chosen = useRef(false);
  // another screen (Back, a link of the page) or a wide window closes the narrow screen's menu
  const [shownPath, setShownPath] = useState(location.pathname);
  if (shownPath !== location.pathname || (menuOpen && !narrow)) {
    setShownPath(location.pathname);
    setMenuOpen(false);
  }
  const overlay = narrow && menuOpen;
  const [signingOut, setSigningOut] = useState(false);
  // a control that leaves the page (or is disabled) while focused gives the focus to a neighbour, never to <body>
  useFocusRescue();

  const companyIds = useMemo(() => view.companies.map((c) => c.company_id), [view.companies]);
  const info = useInfoPopup();
  // The companies as last read: an active company gone from the next read is announced before the screens move on —
  // unless the user is deleting their own account or signing out (their companies go with it: no news to them).
  const lastCompanies = useRef<Company[] | null>(null);
  const leaving = useDeletingOwnAccount() || auth.signedOutOnPurpose;
  useEffect(() => {
    if (view.isLoading || view.isError) return;
    const notice = activeCompanyGoneNotice(lastCompanies.current, view.companies, store.getState().companyId, view.allCompanies);
    lastCompanies.current = view.companies;
    store.reconcile(companyIds);
    if (notice && !leaving) info.show(notice);
  }, [view.isLoading, view.isError, view.companies, view.allCompanies, companyIds, store, info, leaving]);

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


  const onSignOut = async () => {
    setSigningOut(true);
    await auth.signOut();
  };

  return (
    <div className={['app-shell', collapsed ? 'menu-collapsed' : '', overlay ? 'menu-open' : ''].filter(Boolean).join(' ')}>
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
        ref={menuRef}
        counts={counts}
        showTeam={view.isCompanyAdmin}
        showIntegration={!view.allCompanies && view.active?.role === 'admin'}
        showAdmin={profile.data?.is_admin === true}
        collapsed={collapsed}
        onToggleCollapsed={() => setCollapsed((v) => !v)}
        overlay={
          narrow
            ? {
                onClose: () => setMenuOpen(false),
                onNavigate: () => {
                  chosen.current = true;
                  setMenuOpen(false);
                },
              }
            : undefined
        }
      />
      {overlay && <MenuOverlay menuRef={menuRef} onClose={() => setMenuOpen(false)} chosen={chosen} />}
      {/* under the open overlay the screen is out of reach: no Tab stop, nothing read by a screen reader */}
      <div className="app-main" inert={overlay}>
        <Header
          title={title}
          company={view.allCompanies ? 'All' : view.active?.name}
          userName={fullName(profile.data)}
          onSignOut={() => void onSignOut()}
          signingOut={signingOut}
          menu={
            narrow
              ? {
                  open: overlay,
                  onOpen: () => {
                    chosen.current = false;
                    setMenuOpen(true);
                  },
                }
              : undefined
          }
        />
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
