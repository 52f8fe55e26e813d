import { useState } from 'react';
import '../drive.css';
import { Navigate, useNavigate, useParams } from 'react-router-dom';
import { DRIVE_FLAG, DRIVE_FOLDER_FIELD, DRIVE_LABEL, isDriveService } from '../../../../../shared/schemas/drive';
import { Button } from '../../../components/ui/Button';
import { useInfoPopup } from '../../../components/ui/InfoPopup';
import { LeaveForDashboard } from '../../../components/ui/LeaveForDashboard';
import { LoadingBlock } from '../../../components/ui/Spinner';
import { messageOf } from '../../../lib/api-error';
import { adminScreenNotice } from '../../../lib/roles';
import { useActiveCompany } from '../../companies/api/companies';
import { useChooseFolder } from '../api/drive';
import { FolderListModal } from './FolderListModal';

/**
 * /integration/{service_type}: the folder screen (product.md): title Integration Google or Integration Dropbox,
 * the selected folder or a prompt to select one, OK and Select Folder, the folder list pop-up.
 */
export function DriveFolderPage() {
  const { service } = useParams();
  const navigate = useNavigate();
  const view = useActiveCompany();
  const info = useInfoPopup();
  const company = view.active;
  const choose = useChooseFolder(company?.company_id ?? '');
  const [popup, setPopup] = useState(false);

  if (!isDriveService(service)) return <Navigate to="/integration" replace />;
  if (view.isLoading) return <LoadingBlock />;
  if (!company || view.allCompanies || company.role !== 'admin') return <LeaveForDashboard notice={adminScreenNotice('Integration', view, { perCompany: true })} />;
  if (!company[DRIVE_FLAG[service]]) return <Navigate to="/integration" replace />;
  const selected = company[DRIVE_FOLDER_FIELD[service]];

  return (
    <div className="drive-page" data-testid="drive-folder-page">
      <div className="fields-config-head">
        <h2>Integration {DRIVE_LABEL[service]}</h2>
        <span className="muted">{company.name}</span>
      </div>
      <section className="card drive-card">
        {selected ? (
          <p data-testid="drive-selected-folder">
            Selected folder: <strong>{selected}</strong>
          </p>
        ) : (
          <p className="muted" data-testid="drive-folder-prompt">
            Select a folder: new files in it become documents.
          </p>
        )}
        <div className="drive-actions">
          <Button variant="secondary" onClick={() => setPopup(true)} data-testid="drive-select-folder">
            Select Folder
          </Button>
          {/* (without a folder the import reads nothing: OK waits for one; the side menu still leaves) */}
          <Button onClick={() => navigate('/integration')} disabled={!selected} title={selected ? undefined : 'Select a folder first'} data-testid="drive-ok">
            OK
          </Button>
        </div>
      </section>
      {popup && (
        <FolderListModal
          companyId={company.company_id}
          service={service}
          selected={selected}
          busy={choose.isPending}
          onClose={() => setPopup(false)}
          onPick={async (folder) => {
            try {
              await choose.mutateAsync({ service_type: service, folder_id: folder.id, folder_name: folder.name });
              setPopup(false);
            } catch (error) {
              info.show(messageOf(error), 'error');
            }
          }}
        />
      )}
    </div>
  );
}
