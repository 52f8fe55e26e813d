import { Navigate, Outlet } from 'react-router-dom';
import { LoadingBlock } from '../../../components/ui/Spinner';
import { useProfile } from '../../profile/api/profile';

/** /admin and /admin/{company_id}: platform admins only (GET /user is_admin); anyone else goes to the dashboard. */
export function RequireGlobalAdmin() {
  const profile = useProfile();
  if (profile.isPending) return <LoadingBlock />;
  if (profile.data?.is_admin !== true) return <Navigate to="/dashboard" replace />;
  return <Outlet />;
}
