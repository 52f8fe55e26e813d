import { useCallback, useId, useState } from 'react';
import type { z } from 'zod';
import {
  SQL_DEFAULT_PORT,
  SQL_ENGINE_LABEL,
  SQL_ENGINES,
  SQL_ENGINES_WITHOUT_TLS,
  SQL_MAPPING_FIELD_LABEL,
  SQL_TARGET_LABEL,
  SQL_TARGETS,
  sqlMappingFieldMessage,
  sqlCredentialsSchema,
  sqlMappingSchema,
  STAKEHOLDER_COLUMNS,
  type SqlEngine,
  type SqlMapping,
  type SqlMappingSaved,
  type SqlTarget,
} from '../../../../../shared/schemas/master-data-sync';
import { Button } from '../../../components/ui/Button';
import { Checkbox } from '../../../components/ui/Checkbox';
import { TextAreaField } from '../../../components/ui/TextAreaField';
import { TextField } from '../../../components/ui/TextField';
import { ApiError, messageOf } from '../../../lib/api-error';
import { useForm } from '../../../lib/use-form';
import { zodValidator, type Validator } from '../../../lib/validation';
import { mappingSavedText } from '../lib/sql-mapping';
import { CredentialsFrame, showCredentialError } from './CredentialsModal';

type SqlValues = { engine: string; host: string; port: string; user: string; password: string; database: string; trust_server_certificate: boolean; allow_unencrypted: boolean; ca_certificate: string };

/**
 * The SQL import's credentials pop-up: Host, User, Password required, Port not required (the pop-up's rules), and
 * the database and engine. A failed connection test shows the server's message on Host; the toggle stays off.
 */
export function SqlCredentialsModal({ onSubmit, onClose }: { onSubmit: (credential: Record<string, unknown>) => Promise<void>; onClose: () => void }) {
  const validate = useCallback<Validator<SqlValues, z.output<typeof sqlCredentialsSchema>>>((v) => zodValidator(sqlCredentialsSchema)(v), []);
  const form = useForm<SqlValues, z.output<typeof sqlCredentialsSchema>>(
    { engine: 'postgres', host: '', port: '', user: '', password: '', database: '', trust_server_certificate: false, allow_unencrypted: false, ca_certificate: '' },
    validate,
  );
  const engineId = useId();
  const submit = form.handleSubmit(async (data) => {
    try {
      // SQL Server always encrypts: the box is not shown for it, and a tick left from another engine is not sent.
      const credential = SQL_ENGINES_WITHOUT_TLS.includes(data.engine) ? data : { ...data, allow_unencrypted: false };
      await onSubmit(credential as unknown as Record<string, unknown>);
    } catch (error) {
      showCredentialError(form, error, 'host');
    }
  });
  const engine = form.values.engine as SqlEngine;
  return (
    <CredentialsFrame title="SQL database credentials" testId="sql-credentials-popup" formId="sql-credentials-form" pending={form.pending} onSubmit={submit} onClose={onClose}>
      <p className="muted">Suppliers, customers, categories and items are read from this database (read only) every hour and on Sync now.</p>
      <div className="field">
        <label htmlFor={engineId} className="field-label">
          Engine
        </label>
        <select id={engineId} name="engine" className="input select" value={form.values.engine} onChange={(e) => form.setValue('engine', e.target.value)}>
          {SQL_ENGINES.map((e) => (
            <option key={e} value={e}>
              {SQL_ENGINE_LABEL[e]}
            </option>
          ))}
        </select>
      </div>
      <TextField label="Host" autoComplete="off" {...form.text('host')} />
      <TextField label="User" autoComplete="off" {...form.text('user')} />
      <TextField label="Password" type="password" autoComplete="new-password" {...form.text('password')} />
      <TextField label="Port" inputMode="numeric" placeholder={String(SQL_DEFAULT_PORT[engine] ?? '')} {...form.text('port')} />
      <TextField label="Database" autoComplete="off" {...form.text('database')} />
      <TextAreaField
        label="Certificate authority (optional)"
        name="ca_certificate"
        className="sql-ca-certificate"
        spellCheck={false}
        placeholder="-----BEGIN CERTIFICATE-----"
        value={form.values.ca_certificate}
        onChange={(e) => form.setValue('ca_certificate', e.target.value)}
        error={form.errorOf('ca_certificate')}
      />
      <Checkbox label="Trust the server certificate" {...form.checkbox('trust_server_certificate')} />
      {SQL_ENGINES_WITHOUT_TLS.includes(engine) && <Checkbox label="Allow an unencrypted connection" {...form.checkbox('allow_unencrypted')} />}
      <p className="muted field-hint">
        The connection is encrypted, and the server&apos;s certificate is checked against the authority above, or the public ones when it is
        empty. Tick a box only for a server on a network you trust: the first for a self-signed certificate, the second for a server without
        TLS.
      </p>
    </CredentialsFrame>
  );
}


/** Which tables and columns hold each kind of record (PUT /company/service/sql/mapping). */
export function SqlMappingEditor({ mapping, saving, onSave }: { mapping: SqlMapping; saving: boolean; onSave: (m: SqlMapping) => Promise<SqlMappingSaved> }) {
  const [draft, setDraft] = useState<SqlMapping>(mapping);
  const [error, setError] = useState<string | null>(null);
  /** Messages on the fields they are about (`suppliers.name`): the form's own check, or the database's (422). */
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [saved, setSaved] = useState<SqlMappingSaved | null>(null);
  const set = (target: SqlTarget, field: string, value: string | boolean) => {
    setSaved(null);
    setFieldErrors(({ [`${target}.${field}`]: _done, ...rest }) => rest);
    setDraft((d) => ({ ...d, [target]: { ...d[target], [field]: value } }) as SqlMapping);
  };
  const save = async () => {
    const parsed = sqlMappingSchema.safeParse(draft);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const message = sqlMappingFieldMessage(issue.path[0] as SqlTarget, String(issue.path[1]), issue.message);
      setFieldErrors({ [issue.path.slice(0, 2).join('.')]: message });
      setError(message);
      return;
    }
    try {
      setError(null);
      setFieldErrors({});
      setSaved(await onSave(parsed.data));
    } catch (e) {
      setSaved(null);
      setFieldErrors(e instanceof ApiError ? e.fieldErrors : {});
      setError(messageOf(e));
    }
  };
  return (
    <div className="sql-mapping" data-testid="sql-mapping">
      {SQL_TARGETS.map((target) => {
        const fields = ['table', ...(target === 'suppliers' || target === 'customers' ? STAKEHOLDER_COLUMNS : ['code', 'name'])];
        const m = draft[target] as unknown as Record<string, string | boolean>;
        return (
          <fieldset key={target} className="sql-mapping-target">
            <legend>
              <label>
                <input type="checkbox" checked={Boolean(m.enabled)} onChange={(e) => set(target, 'enabled', e.target.checked)} data-testid={`mapping-${target}-enabled`} /> {SQL_TARGET_LABEL[target]}
              </label>
            </legend>
            <div className="form-grid">
              {fields.map((f) => (
                <TextField
                  key={f}
                  name={`${target}.${f}`}
                  label={SQL_MAPPING_FIELD_LABEL[f] ?? f}
                  autoComplete="off"
                  value={String(m[f] ?? '')}
                  disabled={!m.enabled}
                  error={fieldErrors[`${target}.${f}`]}
                  onChange={(e) => set(target, f, e.target.value)}
                  data-testid={`mapping-${target}-${f}`}
                />
              ))}
            </div>
          </fieldset>
        );
      })}
      {error && (
        <p className="field-error" role="alert" data-testid="sql-mapping-error">
          {error}
        </p>
      )}
      <div className="modal-actions">
        {saved && <span className="muted" data-testid="sql-mapping-saved">{mappingSavedText(saved)}</span>}
        <Button onClick={() => void save()} loading={saving} data-testid="save-sql-mapping">
          Save mapping
        </Button>
      </div>
    </div>
  );
}
