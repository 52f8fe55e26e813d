import { useEffect, useRef, useState } from 'react';
import { Link, Navigate, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { DRIVE_LABEL, DRIVE_MSG, isDriveService } from '../../../../../shared/schemas/drive';
import { LoadingBlock } from '../../../components/ui/Spinner';
import { useActiveCompany } from '../../companies/api/companies';
import { useDriveAuthorize } from '../api/drive';
import '../drive.css';

/**
 * /integration/{service_type}/authcallback: the provider sends the browser back here with `code` and `state`
 * (or `error` when the user cancelled). The code is exchanged once; then the folder screen opens.
 */
export function DriveCallbackPage() {
  const { service } = useParams();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const view = useActiveCompany();
  const companyId = view.active?.company_id ?? '';
  const authorize = useDriveAuthorize(companyId);
  const started = useRef(false);
  const [failed, setFailed] = useState(false);
  const code = params.get('code');
  const state = params.get('state');
  const refused = Boolean(params.get('error')) || !code || !state;

  useEffect(() => {
    if (started.current || !companyId || !isDriveService(service) || refused) return;
    started.current = true;
    authorize
      .mutateAsync({ service_type: service, code: code!, state: state! })
      .then(() => navigate(`/integration/${service}`, { replace: true }))
      .catch(() => setFailed(true));
  }, [authorize, code, companyId, navigate, refused, service, state]);

  if (!isDriveService(service)) return <Navigate to="/integration" replace />;
  if (view.isLoading) return <LoadingBlock />;
  if (refused || failed) {
    return (
      <div className="drive-page" data-testid="drive-callback">
        <div className="fields-config-head">
          <h2>Integration {DRIVE_LABEL[service]}</h2>
        </div>
        <section className="card drive-card">
          <p className="form-error integration-error" role="alert" data-testid="drive-connection-error">
            {DRIVE_MSG.connectionError}
          </p>
          <Link to="/integration">Back to Integration</Link>
        </section>
      </div>
    );
  }
  return <LoadingBlock />;
}
