import { Navigate, Outlet, Route, Routes, useLocation } from 'react-router-dom';
import { LoadingBlock } from '../components/ui/Spinner';
import { ConfirmSignUpPage } from '../features/auth/components/ConfirmSignUpPage';
import { ForgotPasswordPage } from '../features/auth/components/ForgotPasswordPage';
import { InvitePage } from '../features/auth/components/InvitePage';
import { SignInPage, type AuthLocationState } from '../features/auth/components/SignInPage';
import { SignUpPage } from '../features/auth/components/SignUpPage';
import { DashboardPage } from '../features/companies/components/DashboardPage';
import { EditReceiptPage } from '../features/edit-receipt/components/EditReceiptPage';
import { FieldsConfigPage } from '../features/fields-config/components/FieldsConfigPage';
import { IntegrationPage } from '../features/integration/components/IntegrationPage';
import { DriveCallbackPage } from '../features/drive-import/components/DriveCallbackPage';
import { DriveFolderPage } from '../features/drive-import/components/DriveFolderPage';
import { MasterDataPage } from '../features/master-data/components/MasterDataPage';
import { MyProfilePage } from '../features/profile/components/MyProfilePage';
import { ReceiptsPage } from '../features/receipts/components/ReceiptsPage';
import { SelectCompanyPage } from '../features/select-company/components/SelectCompanyPage';
import { MyTeamPage, RequireCompanyAdmin } from '../features/team/components/MyTeamPage';
import { AdminCompanyPage } from '../features/admin/components/AdminCompanyPage';
import { AdminPage } from '../features/admin/components/AdminPage';
import { RequireGlobalAdmin } from '../features/admin/components/RequireGlobalAdmin';
import { SettingsPage } from '../features/settings/components/SettingsPage';
import { AppShell } from '../features/shell/components/AppShell';
import { SessionExpiredPopup } from '../features/shell/components/SessionExpiredPopup';
import { useAuth } from './auth';

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
            {/* Google Drive and Dropbox imports: the provider's return, then the folder screen */}
            <Route path="/integration/:service/authcallback" element={<DriveCallbackPage />} />
            <Route path="/integration/:service" element={<DriveFolderPage />} />
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
      <SessionExpiredPopup />
    </>
  );
}
