/**
 * POST /company/service: switching an integration of a company on or off (product.md "Integrations").
 *
 * - Export targets (FTP, NSOFT, Rivile) are switched on only after a real connection test with the given
 *   credentials (or, without any, the stored ones): FTP/NSOFT log in and list the home folder, Rivile calls
 *   the API. A failed test is a 422 whose message is the server's own, placed on the Host (or API key) field;
 *   the flag stays off and nothing is stored.
 * - Credentials are sealed (SecretBox) with the company and kind as context and kept on their own item, never
 *   on the company record; no answer carries them.
 * - Switching off deletes the stored credentials unless the caller asks to keep them (`keep_credentials`).
 * - The two display-only-imported toggles are plain flags. Imports (SQL, Rivile) are refused until the import
 *   work wires them: a flag that says "on" while nothing imports would be a lie.
 */
import { AppError, notFound } from '../../../shared/errors';
import type { Company } from '../../../shared/schemas/company';
import {
  apiKeyCredentialsSchema,
  CREDENTIAL_KIND,
  INTEGRATION_MSG,
  serverCredentialsSchema,
  type PostServiceInput,
  type ServiceType,
} from '../../../shared/schemas/integrations';
import { monthOf, toCompanyView } from '../accounts/companies';
import { publishCompanyChange } from '../live/company-event';
import type { AccountsStore, Clock, LiveEvents } from '../ports';
import { TargetError, type FileDrop, type IntegrationStore, type RivileApi, type SecretBox, type ServerLogin } from './ports';
import { testRivile } from './rivile';
// Master-data imports (SQL, Rivile)
import type { SqlConnector, SyncStateStore } from '../master-data/sync/ports';
import { isSyncImport, switchSqlImport } from '../master-data/sync/switch';

export interface ServiceDeps {
  store: AccountsStore;
  integrations: IntegrationStore;
  secrets: SecretBox;
  fileDrop: FileDrop;
  rivile: RivileApi;
  clock: Clock;
  live: LiveEvents;
  /** The deployed Email-in domain the answered company's address is shown at (EMAIL_IN_DOMAIN; empty: the stored one). */
  emailInDomain: string;
  /** Master-data imports: the import's state (schedule list) and the SQL sessions of the connection test. */
  syncState?: SyncStateStore;
  sql?: SqlConnector;
}

export type Credentials = { kind: 'server'; login: ServerLogin } | { kind: 'api_key'; api_key: string };

export const secretContext = (companyId: string, type: ServiceType) => ({ company_id: companyId, integration: type });

function zodToDetails(issues: { path: PropertyKey[]; message: string }[]) {
  return issues.map((i) => ({ path: i.path.map(String), message: i.message }));
}

/** The credential object as sent, checked against the form of its kind (422 with the field messages). */
export function parseCredentials(type: ServiceType, raw: PostServiceInput['credential']): Credentials {
  const kind = CREDENTIAL_KIND[type];
  if (kind === 'server') {
    const r = serverCredentialsSchema.safeParse(raw ?? {});
    if (!r.success) throw new AppError('ValidationFailed', 'Invalid credentials', zodToDetails(r.error.issues));
    return { kind, login: { host: r.data.host, user: r.data.user, password: r.data.password, ...(r.data.port ? { port: r.data.port } : {}) } };
  }
  const r = apiKeyCredentialsSchema.safeParse(raw ?? {});
  if (!r.success) throw new AppError('ValidationFailed', 'Invalid credentials', zodToDetails(r.error.issues));
  return { kind: 'api_key', api_key: r.data.api_key };
}

/** Reads and opens the stored credentials of a kind (the export job and the re-test only). */
export async function openCredentials(
  deps: Pick<ServiceDeps, 'integrations' | 'secrets'>,
  companyId: string,
  type: ServiceType,
): Promise<Credentials | undefined> {
  const stored = await deps.integrations.getCredentials(companyId, type);
  if (!stored) return undefined;
  return JSON.parse(await deps.secrets.open(stored.sealed, secretContext(companyId, type))) as Credentials;
}

/** The connection test: throws a 422 with the server's message on the field the user typed it in. */
export async function testConnection(deps: Pick<ServiceDeps, 'fileDrop' | 'rivile'>, creds: Credentials): Promise<void> {
  try {
    if (creds.kind === 'server') await deps.fileDrop.test(creds.login);
    else await testRivile(deps.rivile, creds.api_key);
  } catch (error) {
    const message = error instanceof TargetError ? error.message : 'The connection test failed';
    const field = creds.kind === 'server' ? 'host' : 'api_key';
    throw new AppError('ValidationFailed', message, [{ path: [field], message }]);
  }
}

async function companyViewFor(deps: Pick<ServiceDeps, 'store' | 'clock' | 'emailInDomain'>, userId: string, companyId: string): Promise<Company> {
  const [membership, [record], stats] = await Promise.all([
    deps.store.getMembership(userId, companyId),
    deps.store.getCompanies([companyId]),
    deps.store.getCompanyStats([companyId], monthOf(deps.clock.now())),
  ]);
  if (!membership || !record) throw notFound('Company not found');
  return toCompanyView(record, membership.role, stats.get(companyId), deps.emailInDomain);
}

export async function changeService(
  deps: ServiceDeps,
  caller: { userId: string; companyId: string },
  input: PostServiceInput & { keep_credentials?: boolean },
): Promise<Company> {
  const { companyId } = caller;
  const type = input.type;
  const kind = CREDENTIAL_KIND[type];
  if (isSyncImport(type) && (!deps.syncState || !deps.sql)) throw new Error('the import switch needs syncState and sql');
  if (type === 'sql_import') {
    await switchSqlImport({ ...deps, syncState: deps.syncState!, sql: deps.sql! }, companyId, input);
  } else if (kind && input.enabled) {
    let creds: Credentials;
    let fresh = false;
    if (input.credential && Object.values(input.credential).some((v) => v !== undefined && v !== null && v !== '')) {
      creds = parseCredentials(type, input.credential);
      fresh = true;
    } else {
      const stored = await openCredentials(deps, companyId, type);
      if (!stored) {
        const field = kind === 'server' ? 'host' : 'api_key';
        throw new AppError('ValidationFailed', INTEGRATION_MSG.credentialsRequired, [{ path: [field], message: INTEGRATION_MSG.credentialsRequired }]);
      }
      creds = stored;
    }
    await testConnection(deps, creds);
    if (fresh) {
      const sealed = await deps.secrets.seal(JSON.stringify(creds), secretContext(companyId, type));
      await deps.integrations.putCredentials({ company_id: companyId, type, sealed, updated_at: deps.clock.now().toISOString() });
    }
    await deps.integrations.setFlag(companyId, type, true);
  } else {
    await deps.integrations.setFlag(companyId, type, input.enabled);
    if (kind && !input.enabled && !input.keep_credentials) await deps.integrations.deleteCredentials(companyId, type);
  }
  if (type === 'rivile_import') await deps.syncState!.setEnabled(companyId, type, input.enabled, deps.clock.now().toISOString());
  const view = await companyViewFor(deps, caller.userId, companyId);
  await publishCompanyChange(deps.live, view);
  return view;
}
