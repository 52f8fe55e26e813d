import { lazy, Suspense, type ComponentType } from 'react';
import { Navigate, Outlet, Route, Routes, useLocation } from 'react-router-dom';
import { LoadingBlock } from '../components/ui/Spinner';
import type { AuthLocationState } from '../features/auth/components/SignInPage';
import { useAuth } from './auth';

/**
 * Route-level code splitting: every screen is its own chunk, loaded when its route is first shown, so the
 * first screen (sign-in or dashboard) loads only the app frame and itself (`npm run bench:bundle` prints the
 * initial JavaScript). Screens are named exports; `lazyNamed` adapts them to React.lazy.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function lazyNamed<M extends Record<K, ComponentType<any>>, K extends keyof M & string>(load: () => Promise<M>, name: K) {
  return lazy(async () => ({ default: (await load())[name] }));
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
const MasterDataPage = lazyNamed(() => import('../features/master-data/components/MasterDataPage'), 'MasterDataPage');
const MyProfilePage = lazyNamed(() => import('../features/profile/components/MyProfilePage'), 'MyProfilePage');
const ReceiptsPage = lazyNamed(() => import('../features/receipts/components/ReceiptsPage'), 'ReceiptsPage');
const SelectCompanyPage = lazyNamed(() => import('../features/select-company/components/SelectCompanyPage'), 'SelectCompanyPage');
const MyTeamPage = lazyNamed(() => import('../features/team/components/MyTeamPage'), 'MyTeamPage');
const RequireCompanyAdmin = lazyNamed(() => import('../features/team/components/MyTeamPage'), 'RequireCompanyAdmin');
const AdminCompanyPage = lazyNamed(() => import('../features/admin/components/AdminCompanyPage'), 'AdminCompanyPage');
const AdminPage = lazyNamed(() => import('../features/admin/components/AdminPage'), 'AdminPage');
const RequireGlobalAdmin = lazyNamed(() => import('../features/admin/components/RequireGlobalAdmin'), 'RequireGlobalAdmin');
const SettingsPage = lazyNamed(() => import('../features/settings/components/SettingsPage'), 'SettingsPage');
const AppShell = lazyNamed(() => import('../features/shell/components/AppShell'), 'AppShell');
const SessionExpiredPopup = lazyNamed(() => import('../features/shell/components/SessionExpiredPopup'), 'SessionExpiredPopup');

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
  if (status === 'loading') return <FullPageLoading />;
  if (status === 'signedIn') {
    const from = (location.state as AuthLocationState | null)?.from;
    return <Navigate to={from && from.startsWith('/') ? from : '/dashboard'} replace />;
  }
  return <Outlet />;
}

/** Signed-in screens; a signed-out user goes to /signin, keeping the path to come back to. */
function RequireAuth() {
  const { status } = useAuth();
  const location = useLocation();
  if (status === 'loading') return <FullPageLoading />;
  if (status === 'signedOut') {
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
            <Route path="/receipts/:status" element={<ReceiptsPage />} />
            <Route path="/select-company/:id" element={<SelectCompanyPage />} />
            <Route path="/edit-receipt/:id" element={<EditReceiptPage />} />
            {/* Integrations */}
            <Route path="/integration" element={<IntegrationPage />} />
            <Route path="/fields-configuration" element={<FieldsConfigPage />} />
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
            <Route path="/my-team" element={<RequireCompanyAdmin><MyTeamPage /></RequireCompanyAdmin>} />
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
