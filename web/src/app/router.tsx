import { lazy, Suspense, useEffect, type ComponentType, type LazyExoticComponent } from 'react';
import { Navigate, Outlet, Route, Routes, useLocation } from 'react-router-dom';
import { LoadingBlock } from '../components/ui/Spinner';
import type { AuthLocationState } from '../features/auth/components/SignInPage';
import { useAuth } from './auth';

/**
 * Route-level code splitting: every screen is its own chunk, loaded when its route is first shown, so the
 * first screen (sign-in or dashboard) loads only the app frame and itself (`npm run bench:bundle` prints the
 * initial JavaScript). Screens are named exports; `lazyNamed` adapts them to React.lazy and adds `preload`.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Screen = LazyExoticComponent<ComponentType<any>> & { preload: () => Promise<unknown> };
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function lazyNamed<M extends Record<K, ComponentType<any>>, K extends keyof M & string>(load: () => Promise<M>, name: K): Screen {
  const component = lazy(async () => ({ default: (await load())[name] }));
  // A second import() of the same module is answered from the module map: one download either way.
  return Object.assign(component, { preload: () => load().catch(() => undefined) });
}

const ConfirmSignUpPage = lazyNamed(() => import('../features/auth/components/ConfirmSignUpPage'), 'ConfirmSignUpPage');
const ForgotPasswordPage = lazyNamed(() => import('../features/auth/components/ForgotPasswordPage'), 'ForgotPasswordPage');
const InvitePage = lazyNamed(() => import('../features/auth/components/InvitePage'), 'InvitePage');
const SignInPage = lazyNamed(() => import('../features/auth/components/SignInPage'), 'SignInPage');
const SignUpPage = lazyNamed(() => import('../features/auth/components/SignUpPage'), 'SignUpPage');
const DashboardPage = lazyNamed(() => import('../features/companies/components/DashboardPage'), 'DashboardPage');
const EditReceiptPage = lazyNamed(() => import('../features/edit-receipt/components/EditReceiptPage'), 'EditReceiptPage');
const FieldsConfigPage = lazyNamed(() => import('../features/fields-config/components/FieldsConfigPage'), 'FieldsConfigPage');
const IntegrationPage = lazyNamed(() => import('../features/integration/components/IntegrationPage'), 'IntegrationPage');
const DriveCallbackPage = lazyNamed(() => import('../features/drive-import/components/DriveCallbackPage'), 'DriveCallbackPage');
const DriveFolderPage = lazyNamed(() => import('../features/drive-import/components/DriveFolderPage'), 'DriveFolderPage');
const MasterDataPage = lazyNamed(() => import('../features/master-data/components/MasterDataPage'), 'MasterDataPage');
const MyProfilePage = lazyNamed(() => import('../features/profile/components/MyProfilePage'), 'MyProfilePage');
const ReceiptsPage = lazyNamed(() => import('../features/receipts/components/ReceiptsPage'), 'ReceiptsPage');
// Files that did not upload because the session ended: the upload pop-up opens again with them on the list.
const ResumeUploads = lazyNamed(() => import('../features/upload/components/ResumeUploads'), 'ResumeUploads');
const SelectCompanyPage = lazyNamed(() => import('../features/select-company/components/SelectCompanyPage'), 'SelectCompanyPage');
const MyTeamPage = lazyNamed(() => import('../features/team/components/MyTeamPage'), 'MyTeamPage');
const RequireCompanyAdmin = lazyNamed(() => import('../features/team/components/MyTeamPage'), 'RequireCompanyAdmin');
const AdminCompanyPage = lazyNamed(() => import('../features/admin/components/AdminCompanyPage'), 'AdminCompanyPage');
const AdminPage = lazyNamed(() => import('../features/admin/components/AdminPage'), 'AdminPage');
const RequireGlobalAdmin = lazyNamed(() => import('../features/admin/components/RequireGlobalAdmin'), 'RequireGlobalAdmin');
const SettingsPage = lazyNamed(() => import('../features/settings/components/SettingsPage'), 'SettingsPage');
const AppShell = lazyNamed(() => import('../features/shell/components/AppShell'), 'AppShell');
const SessionExpiredPopup = lazyNamed(() => import('../features/shell/components/SessionExpiredPopup'), 'SessionExpiredPopup');

/**
 * Preloading, so a screen's code is not fetched only when it is clicked: at start the screen of the opened path
 * (with the frame when signed-in) is fetched while /config.json loads; once the first screen shows, the screens
 * that come next are fetched in the background — the frame and dashboard from a signed-out screen, every
 * signed-in screen once signed in. Paths not listed here simply load on first use.
 */
const SIGNED_IN_SCREENS: Screen[] = [
  DashboardPage, ReceiptsPage, EditReceiptPage, MyProfilePage, SelectCompanyPage, MasterDataPage, SettingsPage,
  IntegrationPage, DriveFolderPage, DriveCallbackPage, FieldsConfigPage, RequireCompanyAdmin, MyTeamPage, RequireGlobalAdmin, AdminPage, AdminCompanyPage,
];
const SCREEN_OF_PATH: Record<string, Screen[]> = {
  '': [SignInPage], signin: [SignInPage], signup: [SignUpPage], 'signup/confirm': [ConfirmSignUpPage], 'signup/invite': [InvitePage],
  forgot: [ForgotPasswordPage], dashboard: [DashboardPage], 'my-profile': [MyProfilePage], receipts: [ReceiptsPage],
  'edit-receipt': [EditReceiptPage], 'select-company': [SelectCompanyPage], integration: [IntegrationPage, DriveFolderPage, DriveCallbackPage],
  'fields-configuration': [RequireCompanyAdmin, FieldsConfigPage], admin: [RequireGlobalAdmin, AdminPage, AdminCompanyPage], settings: [SettingsPage],
  customers: [MasterDataPage], suppliers: [MasterDataPage], categories: [MasterDataPage], items: [MasterDataPage],
  'my-team': [RequireCompanyAdmin, MyTeamPage],
};
const PUBLIC_PATHS = new Set(['', 'signin', 'signup', 'signup/confirm', 'signup/invite', 'forgot']);

/** The code of the opened path's screen (and the frame when signed-in); main.tsx awaits it while the app starts. */
export function preloadOpenedPath(pathname: string): Promise<unknown> {
  const parts = pathname.split('/').filter(Boolean);
  const key = SCREEN_OF_PATH[parts.slice(0, 2).join('/')] ? parts.slice(0, 2).join('/') : (parts[0] ?? '');
  const screens = SCREEN_OF_PATH[key] ?? [];
  return Promise.all([...(screens.length && !PUBLIC_PATHS.has(key) ? [AppShell] : []), ...screens].map((s) => s.preload()));
}

const whenIdle = (run: () => void) => {
  const w = window as Window & { requestIdleCallback?: (cb: () => void, opts?: { timeout: number }) => number };
  if (w.requestIdleCallback) w.requestIdleCallback(run, { timeout: 1000 });
  else setTimeout(run, 200);
};

/** Background fetch of the screens that come next (see above), after the current screen has rendered. */
function usePreloadNext(status: string): void {
  useEffect(() => {
    if (status === 'signedOut') whenIdle(() => [AppShell, DashboardPage].forEach((s) => void s.preload()));
    if (status === 'signedIn') whenIdle(() => [AppShell, SessionExpiredPopup, ...SIGNED_IN_SCREENS].forEach((s) => void s.preload()));
  }, [status]);
}

function FullPageLoading() {
  return (
    <div className="full-page-center">
      <LoadingBlock />
    </div>
  );
}

/** Signed-out screens; a signed-in user goes to where they came from, or the dashboard. */
function PublicOnly() {
  const { status } = useAuth();
  const location = useLocation();
  usePreloadNext(status);
  if (status === 'loading') return <FullPageLoading />;
  if (status === 'signedIn') {
    const from = (location.state as AuthLocationState | null)?.from;
    return <Navigate to={from && from.startsWith('/') ? from : '/dashboard'} replace />;
  }
  return <Outlet />;
}

/**
 * Signed-in screens; a signed-out user goes to /signin, keeping the path to come back to — unless they signed out
 * themselves (Sign Out): the next sign-in, maybe someone else's, starts at the dashboard.
 */
function RequireAuth() {
  const { status, signedOutOnPurpose } = useAuth();
  const location = useLocation();
  usePreloadNext(status);
  if (status === 'loading') return <FullPageLoading />;
  if (status === 'signedOut') {
    if (signedOutOnPurpose) return <Navigate to="/signin" replace />;
    return <Navigate to="/signin" replace state={{ from: `${location.pathname}${location.search}` } satisfies AuthLocationState} />;
  }
  return <Outlet />;
}

/** Unknown paths: /dashboard when signed in, /signin otherwise. */
function Fallback() {
  const { status } = useAuth();
  if (status === 'loading') return <FullPageLoading />;
  return <Navigate to={status === 'signedIn' ? '/dashboard' : '/signin'} replace />;
}

/**
 * Routes of the screens built so far. My Team and integration are not built yet: their menu entries
 * exist, their paths fall back to /dashboard until the screens land.
 */
export function AppRoutes() {
  return (
    <>
      {/* Screens load on first use: the page's own loading block while its chunk arrives. */}
      <Suspense fallback={<FullPageLoading />}>
      <Routes>
        <Route element={<PublicOnly />}>
          <Route path="/" element={<SignInPage />} />
          <Route path="/signin" element={<SignInPage />} />
          <Route path="/signup" element={<SignUpPage />} />
          <Route path="/signup/confirm" element={<ConfirmSignUpPage />} />
          <Route path="/forgot" element={<ForgotPasswordPage />} />
        </Route>
        <Route path="/signup/invite" element={<InvitePage />} />
        <Route element={<RequireAuth />}>
          <Route element={<AppShell />}>
            <Route path="/dashboard" element={<DashboardPage />} />
            <Route path="/my-profile" element={<MyProfilePage />} />
            <Route path="/receipts" element={<Navigate to="/receipts/inbox" replace />} />
            <Route
              path="/receipts/:status"
              element={
                <>
                  <ReceiptsPage />
                  <Suspense fallback={null}>
                    <ResumeUploads />
                  </Suspense>
                </>
              }
            />
            <Route path="/select-company/:id" element={<SelectCompanyPage />} />
            <Route path="/edit-receipt/:id" element={<EditReceiptPage />} />
            {/* Integrations */}
            <Route path="/integration" element={<IntegrationPage />} />
            {/* Google Drive and Dropbox imports: the provider's return, then the folder screen */}
            <Route path="/integration/:service/authcallback" element={<DriveCallbackPage />} />
            <Route path="/integration/:service" element={<DriveFolderPage />} />
            {/* The fields captured per document: company admins only (the API refuses others' saves too) */}
            <Route path="/fields-configuration" element={<RequireCompanyAdmin screen="Fields configuration"><FieldsConfigPage /></RequireCompanyAdmin>} />
            {/* Platform admin (global admins only) and Settings */}
            <Route element={<RequireGlobalAdmin />}>
              <Route path="/admin" element={<AdminPage />} />
              <Route path="/admin/:companyId" element={<AdminCompanyPage />} />
            </Route>
            <Route path="/settings" element={<SettingsPage />} />
            {/* Master data: the path decides the type */}
            <Route path="/customers" element={<MasterDataPage />} />
            <Route path="/suppliers" element={<MasterDataPage />} />
            <Route path="/categories" element={<MasterDataPage />} />
            <Route path="/items" element={<MasterDataPage />} />
            {/* Team and invitations: company admins only */}
            <Route path="/my-team" element={<RequireCompanyAdmin screen="My Team"><MyTeamPage /></RequireCompanyAdmin>} />
          </Route>
        </Route>
        <Route path="*" element={<Fallback />} />
      </Routes>
      </Suspense>
      <Suspense fallback={null}>
        <SessionExpiredPopup />
      </Suspense>
    </>
  );
}
