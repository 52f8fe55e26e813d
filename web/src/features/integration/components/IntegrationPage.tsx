import { useState } from 'react';
import type { Company } from '../../../../../shared/schemas/company';
import { CREDENTIAL_KIND, type ServiceType } from '../../../../../shared/schemas/integrations';
import { SQL_ENGINE_LABEL, type SqlEngine } from '../../../../../shared/schemas/master-data-sync';
import { Button } from '../../../components/ui/Button';
import { useInfoPopup } from '../../../components/ui/InfoPopup';
import { LeaveForDashboard } from '../../../components/ui/LeaveForDashboard';
import { LoadingBlock } from '../../../components/ui/Spinner';
import { messageOf } from '../../../lib/api-error';
import { adminScreenNotice } from '../../../lib/roles';
import { useActiveCompany } from '../../companies/api/companies';
import { useChangeService } from '../api/integration';
import { CredentialsModal } from './CredentialsModal';
// Google Drive and Dropbox imports
import type { DriveService } from '../../../../../shared/schemas/drive';
import { useDriveSwitch } from '../../drive-import/api/drive';
import { DriveImportNote } from '../../drive-import/components/DriveImportNote';
// Master-data imports (SQL, Rivile): credentials, mapping, status and sync now
import { useImportStatuses, useSaveSqlMapping, useSyncNow } from '../api/imports';
import { syncNowNotice } from '../lib/outcomes';
import { ImportStatusPanel } from './ImportStatusPanel';
import { Modal } from '../../../components/ui/Modal';
import { switchOffQuestion, type SwitchOffLoss } from '../lib/switch-off';
import { SqlCredentialsModal, SqlMappingEditor } from './SqlImportForms';

type Flag = keyof Company & string;

/** A switch's accessible name: its section and its label ("Export Rivile"), the section once where the label starts with it. */
export function switchName(section: string, label: string): string {
  return label.toLowerCase().startsWith(`${section.toLowerCase()} `) ? label : `${section} ${label}`;
}

interface Row {
  flag: Flag;
  label: string;
  /** The kind sent to POST /company/service; absent: not switchable here yet. */
  type?: ServiceType;
  note?: string;
  /** Google Drive and Dropbox: switched through drive/switch (an authorisation redirect to connect). */
  drive?: DriveService;
}

const EXPORTS: Row[] = [
  { flag: 'ftp_export', type: 'ftp_export', label: 'FTP', note: 'Each sent document and its XML go to a folder per month on your FTP or FTPS server.' },
  { flag: 'nsoft_export', type: 'nsoft_export', label: 'NSOFT', note: 'Each sent document and its NSOFT import file go to your NSOFT server’s FTP folder.' },
  { flag: 'rivile_export', type: 'rivile_export', label: 'Rivile', note: 'Each sent document becomes a purchase or sales document in Rivile GAMA.' },
];
const IMPORTS: Row[] = [
  { flag: 'sql_import', type: 'sql_import', label: 'SQL', note: 'Suppliers, customers, categories and items from your accounting database (PostgreSQL, MySQL/MariaDB or SQL Server), hourly and on Sync now.' },
  { flag: 'google_drive_import', label: 'Google', drive: 'google' },
  { flag: 'dropbox_import', label: 'Dropbox', drive: 'dropbox' },
  { flag: 'rivile_import', type: 'rivile_import', label: 'Rivile', note: 'Clients and goods from Rivile GAMA become suppliers, customers and items, hourly and on Sync now.' },
];
const DISPLAY: Row[] = [
  { flag: 'display_imported_stakeholders', type: 'display_imported_stakeholders', label: 'Display only imported suppliers and customers' },
  { flag: 'display_imported_categories', type: 'display_imported_categories', label: 'Display only imported categories' },
];

const POPUP_TITLE: Partial<Record<ServiceType, string>> = {
  ftp_export: 'FTP credentials',
  nsoft_export: 'NSOFT credentials',
  rivile_export: 'Rivile API key',
  rivile_import: 'Rivile import API key',
};
/** What an API-key pop-up says the key is for. */
const POPUP_NOTE: Partial<Record<ServiceType, string>> = {
  rivile_export:
    'The key of a Rivile GAMA API user. Documents are created as that user; the key is checked with a call to the API before the export is switched on.',
  rivile_import:
    "The key of a Rivile GAMA API user that may read clients and goods. They are imported into this company's suppliers, customers and items; the key is checked with a call to the API before the import is switched on.",
};
const SWITCHED_ON: Partial<Record<ServiceType, string>> = {
  ftp_export: 'FTP export switched on',
  nsoft_export: 'NSOFT export switched on',
  rivile_export: 'Rivile export switched on',
  rivile_import: 'Rivile import switched on',
  sql_import: 'SQL import switched on',
};

/** /integration: company admin only, not in the all-companies view. */
export function IntegrationPage() {
  const view = useActiveCompany();
  const info = useInfoPopup();
  const company = view.active;
  const change = useChangeService(company?.company_id ?? '');
  const [popup, setPopup] = useState<ServiceType | null>(null);
  const [busy, setBusy] = useState<ServiceType | DriveService | null>(null);
  const driveSwitch = useDriveSwitch(company?.company_id ?? '');
  const imports = useImportStatuses(company?.company_id ?? '', Boolean(company && company.role === 'admin' && !view.allCompanies));
  const syncNow = useSyncNow(company?.company_id ?? '');
  const saveMapping = useSaveSqlMapping(company?.company_id ?? '');
  const [showMapping, setShowMapping] = useState(false);
  /** The switch being turned off that first asks (it deletes credentials or a drive's connection). */
  const [switchingOff, setSwitchingOff] = useState<{ row: Row; section: string; loss: SwitchOffLoss } | null>(null);

  if (view.isLoading) return <LoadingBlock />;
  if (!company || view.allCompanies || company.role !== 'admin') return <LeaveForDashboard notice={adminScreenNotice('Integration', view, { perCompany: true })} />;

  const toggle = async (row: Row, on: boolean, section: string, confirmed = false) => {
    const loss: SwitchOffLoss | null = row.drive ? 'drive' : row.type && (CREDENTIAL_KIND[row.type] || row.type === 'sql_import') ? 'credentials' : null;
    if (!on && loss && !confirmed) {
      setSwitchingOff({ row, section, loss });
      return;
    }
    if (row.drive) {
      // On: to the provider's authorisation page (it comes back to /integration/{service}/authcallback). Off: revoke and clear.
      setBusy(row.drive);
      try {
        const res = await driveSwitch.mutateAsync({ service: row.drive, disconnect: !on });
        if (on && res.url) window.location.assign(res.url);
      } catch (error) {
        info.show(messageOf(error), 'error');
      } finally {
        setBusy(null);
      }
      return;
    }
    if (!row.type) return;
    if (on && (CREDENTIAL_KIND[row.type] || row.type === 'sql_import')) {
      setPopup(row.type);
      return;
    }
    setBusy(row.type);
    try {
      await change.mutateAsync({ type: row.type, enabled: on });
      if (row.type === 'sql_import' || row.type === 'rivile_import') void imports.refetch();
    } catch (error) {
      info.show(messageOf(error), 'error');
    } finally {
      setBusy(null);
    }
  };

  const section = (title: string, rows: Row[], testId: string) => (
    <section className="card integration-section" data-testid={testId}>
      <h3>{title}</h3>
      <ul className="integration-list">
        {rows.map((row) => {
          const checked = Boolean(company[row.flag]);
          return (
            <li key={`${testId}-${row.flag}`} className="integration-row">
              <div>
                <div className="integration-label">{row.label}</div>
                {row.note && <div className="muted integration-note">{row.note}</div>}
                {row.drive && (
                  <DriveImportNote companyId={company.company_id} service={row.drive} on={checked} folder={row.drive === 'google' ? company.google_selected_import_folder_name : company.dropbox_selected_import_folder_name} />
                )}
              </div>
              <label className="switch">
                <input
                  type="checkbox"
                  role="switch"
                  aria-label={switchName(title, row.label)}
                  data-testid={`toggle-${row.flag}`}
                  checked={checked}
                  disabled={!row.type && !row.drive}
                  // busy saving: unavailable (aria-disabled, aria-busy) but focusable, so that the focus stays on it
                  aria-disabled={busy === (row.type ?? row.drive) || undefined}
                  aria-busy={busy === (row.type ?? row.drive) || undefined}
                  onChange={(e) => {
                    if (busy !== (row.type ?? row.drive)) void toggle(row, e.target.checked, title);
                  }}
                />
                <span className="switch-track" aria-hidden="true" />
              </label>
            </li>
          );
        })}
      </ul>
    </section>
  );

  return (
    <div className="integration-page" data-testid="integration-page">
      <div className="fields-config-head">
        <h2>Integration</h2>
        <span className="muted">{company.name}</span>
      </div>
      {section('Export', EXPORTS, 'integration-export')}
      {section('Import', IMPORTS, 'integration-import')}
      {(company.sql_import || company.rivile_import || imports.data?.items.some((i) => i.last_run)) && (
        <section className="card integration-section" data-testid="integration-import-status">
          <h3>Import status</h3>
          {imports.isLoading && <LoadingBlock />}
          {imports.data?.items
            .filter((s) => s.enabled || s.last_run)
            .map((s) => (
              <div key={s.type}>
                <ImportStatusPanel
                  label={s.type === 'sql_import' ? 'SQL' : 'Rivile'}
                  status={s}
                  syncing={syncNow.isPending && syncNow.variables === s.type}
                  onSyncNow={() =>
                    syncNow.mutate(s.type, {
                      onSuccess: (run) => {
                        const notice = syncNowNotice(run);
                        info.show(notice.text, notice.tone);
                      },
                      onError: (error) => info.show(messageOf(error), 'error'),
                    })
                  }
                >
                  {/* (switched off, the stored connection is deleted: neither it nor its mapping is shown) */}
                  {s.type === 'sql_import' && s.enabled && s.connection && (
                    <p className="muted" data-testid="sql-connection">
                      {`${SQL_ENGINE_LABEL[s.connection.engine as SqlEngine] ?? s.connection.engine} · ${s.connection.host} · ${s.connection.database}`}
                    </p>
                  )}
                  {s.type === 'sql_import' && s.enabled && s.mapping && (
                    <>
                      <Button variant="secondary" onClick={() => setShowMapping((v) => !v)} data-testid="toggle-sql-mapping">
                        {showMapping ? 'Hide mapping' : 'Edit mapping'}
                      </Button>
                      {showMapping && <SqlMappingEditor mapping={s.mapping} saving={saveMapping.isPending} onSave={(m) => saveMapping.mutateAsync(m)} />}
                    </>
                  )}
                </ImportStatusPanel>
              </div>
            ))}
        </section>
      )}
      {section('Display', DISPLAY, 'integration-display')}
      {switchingOff && (
        <Modal title="Switch off" size="sm" onClose={() => setSwitchingOff(null)} testId="switch-off-modal">
          <p className="modal-text">{switchOffQuestion(`${switchingOff.row.label} ${switchingOff.section.toLowerCase()}`, switchingOff.loss)}</p>
          <div className="modal-actions">
            <Button variant="secondary" onClick={() => setSwitchingOff(null)}>
              Back
            </Button>
            <Button
              variant="danger"
              onClick={() => {
                const { row, section } = switchingOff;
                setSwitchingOff(null);
                void toggle(row, false, section, true);
              }}
            >
              Switch off
            </Button>
          </div>
        </Modal>
      )}
      {popup === 'sql_import' && (
        <SqlCredentialsModal
          onClose={() => setPopup(null)}
          onSubmit={async (credential) => {
            await change.mutateAsync({ type: 'sql_import', enabled: true, credential });
            setPopup(null);
            void imports.refetch();
            info.show(SWITCHED_ON.sql_import!, 'success');
          }}
        />
      )}
      {popup && popup !== 'sql_import' && (
        <CredentialsModal
          kind={CREDENTIAL_KIND[popup]!}
          title={POPUP_TITLE[popup] ?? 'Credentials'}
          note={POPUP_NOTE[popup]}
          onClose={() => setPopup(null)}
          onSubmit={async (credential) => {
            await change.mutateAsync({ type: popup, enabled: true, credential });
            setPopup(null);
            if (popup === 'rivile_import') void imports.refetch();
            info.show(SWITCHED_ON[popup] ?? 'Switched on', 'success');
          }}
        />
      )}
    </div>
  );
}
