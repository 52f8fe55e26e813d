/**
 * Switching the master-data imports on and off (POST /company/service, called from core/integrations/service.ts).
 * SQL: the credentials (Host, User, Password, Port, database, engine) are tested with a real read-only session
 * before the flag goes on; a failure is a 422 with the server's message on the Host field and the flag stays off
 * (as FTP). Both imports: the state item lists a switched-on import for the schedule.
 */
import { AppError } from '../../../../shared/errors';
import { sqlCredentialsSchema, type SqlCredentials, type SyncImport } from '../../../../shared/schemas/master-data-sync';
import { INTEGRATION_MSG, type PostServiceInput } from '../../../../shared/schemas/integrations';
import { TargetError, type IntegrationStore, type SecretBox } from '../../integrations/ports';
import type { Clock } from '../../ports';
import type { SqlConnector, SyncStateStore } from './ports';
import { openImportCredentials } from './service';

export interface SwitchDeps {
  integrations: IntegrationStore;
  secrets: SecretBox;
  clock: Clock;
  syncState: SyncStateStore;
  sql: SqlConnector;
}

export const isSyncImport = (type: string): type is SyncImport => type === 'sql_import' || type === 'rivile_import';

/** The probe a connection test sends: any SELECT the login may run. */
export const PROBE_SQL = 'SELECT 1 AS ok';

const hostError = (message: string) => new AppError('ValidationFailed', message, [{ path: ['host'], message }]);

/** Opens a session and runs the probe: throws a 422 with the server's message on Host. */
export async function testSqlConnection(sql: SqlConnector, creds: SqlCredentials): Promise<void> {
  let session;
  try {
    session = await sql.open(creds);
    await session.query(PROBE_SQL, []);
  } catch (error) {
    throw hostError(error instanceof TargetError ? error.message : 'The connection test failed');
  } finally {
    await session?.close().catch(() => undefined);
  }
}

export async function switchSqlImport(deps: SwitchDeps, companyId: string, input: PostServiceInput & { keep_credentials?: boolean }): Promise<void> {
  const now = deps.clock.now().toISOString();
  const context = { company_id: companyId, integration: 'sql_import' };
  if (!input.enabled) {
    await deps.integrations.setFlag(companyId, 'sql_import', false);
    await deps.syncState.setEnabled(companyId, 'sql_import', false, now);
    if (!input.keep_credentials) await deps.integrations.deleteCredentials(companyId, 'sql_import');
    return;
  }
  const raw = input.credential;
  const given = raw && Object.values(raw).some((v) => v !== undefined && v !== null && v !== '');
  let creds: SqlCredentials;
  if (given) {
    const parsed = sqlCredentialsSchema.safeParse(raw);
    if (!parsed.success) {
      throw new AppError(
        'ValidationFailed',
        'Invalid credentials',
        parsed.error.issues.map((i) => ({ path: i.path.map(String), message: i.message })),
      );
    }
    creds = parsed.data;
  } else {
    const stored = await openImportCredentials<{ kind: 'sql'; sql: SqlCredentials }>(deps, companyId, 'sql_import');
    if (!stored) throw hostError(INTEGRATION_MSG.credentialsRequired);
    creds = stored.sql;
  }
  await testSqlConnection(deps.sql, creds);
  if (given) {
    const sealed = await deps.secrets.seal(JSON.stringify({ kind: 'sql', sql: creds }), context);
    await deps.integrations.putCredentials({ company_id: companyId, type: 'sql_import', sealed, updated_at: now });
  }
  await deps.syncState.setEnabled(companyId, 'sql_import', true, now, { engine: creds.engine, host: creds.host, database: creds.database });
  await deps.integrations.setFlag(companyId, 'sql_import', true);
}
