import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import type { SchemaField } from '../../../../../shared/schemas/content';
import { useApi } from '../../../app/api-context';
import { Button } from '../../../components/ui/Button';
import { Icon } from '../../../components/ui/Icon';
import { useInfoPopup } from '../../../components/ui/InfoPopup';
import { LoadingBlock } from '../../../components/ui/Spinner';
import { messageOf } from '../../../lib/api-error';
import { useActiveCompany } from '../../companies/api/companies';
import { editKeys, useCompanySchema } from '../../edit-receipt/api/content';
import { changedDatapoints, settingsOf, switchName, toggle, type FieldSetting } from '../lib/changes';

/** Fields configuration: which fields are captured (Visible) and which must be filled (Required), per company. */
export function FieldsConfigPage() {
  const navigate = useNavigate();
  const api = useApi();
  const qc = useQueryClient();
  const info = useInfoPopup();
  const view = useActiveCompany();
  const companyId = view.active?.company_id ?? '';
  const schemaQ = useCompanySchema(companyId);
  const initial = useMemo(() => settingsOf(schemaQ.data?.fields ?? []), [schemaQ.data]);
  const [settings, setSettings] = useState<FieldSetting[]>([]);
  useEffect(() => setSettings(initial), [initial]);
  const changes = changedDatapoints(initial, settings);
  const save = useMutation({
    mutationFn: () => api.put<{ fields: SchemaField[] }>('/schemas', { datapoints: changes }, { query: { company_id: companyId } }),
    onSuccess: (res) => {
      qc.setQueryData(editKeys.schema(companyId), res);
      info.show('Fields saved', 'success');
    },
    onError: (e) => info.show(messageOf(e), 'error'),
  });

  const sections = [...new Set(settings.map((s) => s.section))];
  return (
    <div className="fields-config" data-testid="fields-config">
      <div className="fields-config-head">
        <button type="button" className="icon-btn" aria-label="Back" onClick={() => navigate('/admin')}>
          <Icon name="chevronLeft" />
        </button>
        <h2>Fields configuration</h2>
        {view.active && <span className="muted">{view.active.name}</span>}
      </div>
      {view.active && view.active.role !== 'admin' ? (
        <p className="notice notice-error">Only a company administrator can change the fields.</p>
      ) : schemaQ.isPending ? (
        <LoadingBlock />
      ) : schemaQ.isError ? (
        <p className="notice notice-error">{messageOf(schemaQ.error)}</p>
      ) : (
        <div className="card">
          <table className="fields-config-table">
            <thead>
              <tr>
                <th>Field</th>
                <th>Visible</th>
                <th>Required</th>
              </tr>
            </thead>
            {sections.map((section) => (
              <tbody key={section}>
                <tr className="fields-config-section">
                  <th colSpan={3}>{section}</th>
                </tr>
                {settings
                  .filter((s) => s.section === section)
                  .map((s) => (
                    <tr key={s.id} data-testid={`config-${s.id}`}>
                      <td>
                        {s.label}
                        {s.locked && (
                          <span className="muted fields-config-locked" id={`config-${s.id}-locked`} data-testid={`config-${s.id}-locked`}>
                            {' '}
                            ({s.locked})
                          </span>
                        )}
                      </td>
                      <td>
                        <FieldSwitch setting={s} what="visible" name={switchName(settings, s, 'visible')} onToggle={() => setSettings((cur) => toggle(cur, s.id, 'visible'))} />
                      </td>
                      <td>
                        <FieldSwitch setting={s} what="required" name={switchName(settings, s, 'required')} onToggle={() => setSettings((cur) => toggle(cur, s.id, 'required'))} />
                      </td>
                    </tr>
                  ))}
              </tbody>
            ))}
          </table>
          <div className="form-actions">
            <Button variant="secondary" disabled={!changes.length || save.isPending} onClick={() => setSettings(initial)}>
              Cancel
            </Button>
            <Button disabled={!changes.length} loading={save.isPending} onClick={() => save.mutate()}>
              SAVE
            </Button>
          </div>
        </div>
      )}
    </div>
  );
}

/** A field's Visible or Required switch; a field the spec requires is locked (shown on, not changeable, with why). */
function FieldSwitch({ setting: s, what, name, onToggle }: { setting: FieldSetting; what: 'visible' | 'required'; name: string; onToggle: () => void }) {
  return (
    <label className="switch">
      <input
        type="checkbox"
        role="switch"
        aria-label={name}
        checked={s[what]}
        disabled={Boolean(s.locked)}
        title={s.locked}
        aria-describedby={s.locked ? `config-${s.id}-locked` : undefined}
        onChange={onToggle}
      />
      <span className="switch-track" aria-hidden="true" />
    </label>
  );
}
