/**
 * Master-data imports from an SQL database and from Rivile GAMA (product.md "Integrations": SQL and Rivile
 * import toggles; Stakeholder external flag DB). The web forms and the handlers share these schemas.
 *
 * - SQL credentials: Host, User, Password required, Port not required (the pop-up's rules), plus the database
 *   name and the engine.
 * - The mapping says which table and which columns hold suppliers, customers, categories and items; the
 *   defaults (SQL_MAPPING_DEFAULTS) are documented in docs/decisions.md "Master-data imports".
 * - The status of each import: its last run (when, what it imported, the last error) for the Integration screen.
 */
import { z } from 'zod';
import { atMostCharacters, MSG } from './messages';
import { serverCredentialsSchema } from './integrations';

/** The imports that sync master data on a schedule and on demand ("sync now"). */
export const SYNC_IMPORTS = ['sql_import', 'rivile_import'] as const;
export type SyncImport = (typeof SYNC_IMPORTS)[number];

/** Engines the SQL import connects to (docs/decisions.md: why these three). */
export const SQL_ENGINES = ['postgres', 'mysql', 'mssql'] as const;
export type SqlEngine = (typeof SQL_ENGINES)[number];
export const SQL_ENGINE_LABEL: Record<SqlEngine, string> = {
  postgres: 'PostgreSQL',
  mysql: 'MySQL / MariaDB',
  mssql: 'Microsoft SQL Server',
};
export const SQL_DEFAULT_PORT: Record<SqlEngine, number> = { postgres: 5432, mysql: 3306, mssql: 1433 };

export const DATABASE_NAME_MAX = 128;

/** A certificate authority bundle pasted into the SQL credentials pop-up (AWS RDS's regional bundles are about 5,000). */
export const CA_CERTIFICATE_MAX = 100_000;
export const CA_CERTIFICATE_MESSAGE = 'Paste the certificate as PEM text, from -----BEGIN CERTIFICATE----- to -----END CERTIFICATE-----';
/** One or more PEM certificates and nothing else. */
const PEM_CERTIFICATES = /^(-----BEGIN CERTIFICATE-----\s+[A-Za-z0-9+/=\s]+?-----END CERTIFICATE-----\s*)+$/;

/** The SQL credentials pop-up: the server form plus the database and the engine. */
export const sqlCredentialsSchema = serverCredentialsSchema.extend({
  database: z.string({ error: MSG.required }).trim().min(1, MSG.required).max(DATABASE_NAME_MAX, `At most ${DATABASE_NAME_MAX} characters`),
  engine: z.enum(SQL_ENGINES, { error: 'Choose a database engine' }),
  /**
   * Off (the default): an encrypted connection is made only to a server whose certificate is valid for the host as
   * typed. On: any certificate is taken (a server with a self-signed certificate, on a network the company trusts).
   */
  trust_server_certificate: z.boolean({ error: 'Must be true or false' }).default(false),
  /**
   * Off (the default): the connection must be encrypted; a PostgreSQL or MySQL server that offers no TLS is refused, so
   * that a machine on the path cannot make the import send the login in clear by claiming the server has none. On: a
   * server without TLS is read unencrypted (a server on a network the company trusts). SQL Server always encrypts.
   */
  allow_unencrypted: z.boolean({ error: 'Must be true or false' }).default(false),
  /**
   * The authority (or authorities) that signed the server's certificate, PEM, when it is not one the system knows (a
   * company's own, a cloud provider's database authority such as AWS RDS's regional bundle); empty: the system's.
   */
  ca_certificate: z
    .string({ error: 'Paste the certificate as text' })
    .trim()
    .max(CA_CERTIFICATE_MAX, `At most ${CA_CERTIFICATE_MAX} characters`)
    .refine((v) => v === '' || PEM_CERTIFICATES.test(v), CA_CERTIFICATE_MESSAGE)
    .optional()
    .transform((v) => v || undefined),
});
/** As stored: credentials saved before the choice existed have no `trust_server_certificate` (see trustsServerCertificate). */
export type SqlCredentials = Omit<z.output<typeof sqlCredentialsSchema>, 'trust_server_certificate' | 'allow_unencrypted' | 'ca_certificate'> & {
  trust_server_certificate?: boolean;
  allow_unencrypted?: boolean;
  ca_certificate?: string;
};

/**
 * Whether the connection takes the server's certificate unchecked. Credentials saved before the choice existed trusted
 * every certificate, and keep doing so until they are saved again (an import that ran must not stop at the next hour).
 */
export function trustsServerCertificate(creds: Pick<SqlCredentials, 'trust_server_certificate'>): boolean {
  return creds.trust_server_certificate ?? true;
}

/**
 * Whether a PostgreSQL or MySQL server without TLS may be read unencrypted. Credentials saved before the choice existed
 * fell back to a plain connection, and keep doing so until they are saved again (like trustsServerCertificate).
 */
export function allowsUnencrypted(creds: Pick<SqlCredentials, 'allow_unencrypted'>): boolean {
  return creds.allow_unencrypted ?? true;
}

/** The engines whose servers may offer no TLS at all (SQL Server always encrypts the login). */
export const SQL_ENGINES_WITHOUT_TLS: readonly SqlEngine[] = ['postgres', 'mysql'];

/** A table or column name, optionally schema-qualified (`dbo.Clients`); quoted per engine, never spliced raw. */
export const SQL_IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_$]{0,62}(\.[A-Za-z_][A-Za-z0-9_$]{0,62})?$/;
const identifier = z.string().trim().max(127, atMostCharacters(127)).regex(SQL_IDENTIFIER, 'Letters, digits and _ only (schema.table allowed)');
/** A column that may be left empty (not imported). */
const optionalColumn = z.union([z.literal(''), identifier]).default('');

export const SQL_TARGETS = ['suppliers', 'customers', 'categories', 'items'] as const;
export type SqlTarget = (typeof SQL_TARGETS)[number];
/** How the Integration screen's mapping editor, and the messages about a mapping, name each kind and field. */
export const SQL_TARGET_LABEL: Record<SqlTarget, string> = { suppliers: 'Suppliers', customers: 'Customers', categories: 'Categories', items: 'Items' };
export const SQL_MAPPING_FIELD_LABEL: Record<string, string> = {
  table: 'Table',
  code: 'Code column',
  name: 'Name column',
  vat_id: 'VAT ID column',
  street: 'Street column',
  city: 'City column',
  zipcode: 'Zip code column',
  country: 'Country column',
  email: 'Email column',
};
/** `Suppliers VAT ID column: <message>`: a message about one field of the mapping. */
export const sqlMappingFieldMessage = (target: SqlTarget, field: string, message: string): string =>
  `${SQL_TARGET_LABEL[target]} ${SQL_MAPPING_FIELD_LABEL[field] ?? field}: ${message}`;

const stakeholderMapping = z.object({
  enabled: z.boolean(),
  table: identifier,
  /** The record's code: the key the import upserts by and pages by (keyset order). */
  code: identifier,
  name: identifier,
  vat_id: optionalColumn,
  street: optionalColumn,
  city: optionalColumn,
  zipcode: optionalColumn,
  country: optionalColumn,
  email: optionalColumn,
});
const categoryMapping = z.object({ enabled: z.boolean(), table: identifier, code: identifier, name: identifier });
/** Items are identified by their name in the product; `code` is the source's key the import pages by. */
const itemMapping = z.object({ enabled: z.boolean(), table: identifier, code: identifier, name: identifier });

export const sqlMappingSchema = z.object({
  suppliers: stakeholderMapping,
  customers: stakeholderMapping,
  categories: categoryMapping,
  items: itemMapping,
});
export type SqlMapping = z.output<typeof sqlMappingSchema>;
export type StakeholderMapping = z.output<typeof stakeholderMapping>;
export const STAKEHOLDER_COLUMNS = ['code', 'name', 'vat_id', 'street', 'city', 'zipcode', 'country', 'email'] as const;

const stakeholderDefaults = (table: string): StakeholderMapping => ({
  enabled: true,
  table,
  code: 'code',
  name: 'name',
  vat_id: 'vat_code',
  street: 'address',
  city: 'city',
  zipcode: 'postcode',
  country: 'country',
  email: 'email',
});
/** The mapping a company starts with (docs/decisions.md "Master-data imports"). */
export const SQL_MAPPING_DEFAULTS: SqlMapping = {
  suppliers: stakeholderDefaults('suppliers'),
  customers: stakeholderDefaults('customers'),
  categories: { enabled: true, table: 'categories', code: 'code', name: 'name' },
  items: { enabled: true, table: 'items', code: 'code', name: 'name' },
};

export const putSqlMappingSchema = z.object({ mapping: sqlMappingSchema });
/**
 * The answer of PUT /company/service/sql/mapping: the mapping saved, and why it was saved without being checked
 * against the database (the connection could not be opened), or null when every table and column was found.
 */
export interface SqlMappingSaved {
  mapping: SqlMapping;
  unchecked: string | null;
}
export const postSyncSchema = z.object({ type: z.enum(SYNC_IMPORTS) });

/** What one run did, per kind of record. */
export const syncCountsSchema = z.object({ created: z.number(), updated: z.number(), unchanged: z.number(), rejected: z.number() });
export type SyncCounts = z.infer<typeof syncCountsSchema>;
export const SYNC_KINDS = ['suppliers', 'customers', 'categories', 'items'] as const;
export type SyncKind = (typeof SYNC_KINDS)[number];

export type SyncOutcome = 'running' | 'done' | 'partial' | 'failed';

export interface SyncRunView {
  trigger: 'schedule' | 'manual';
  started_at: string;
  finished_at: string | null;
  /** done: every row read; partial: stopped at its time budget, the next run continues; failed: see error. */
  outcome: SyncOutcome;
  counts: Partial<Record<SyncKind, SyncCounts>>;
  /** Up to a few rejected rows with the reason, for the user. */
  rejected_examples: string[];
  error: string | null;
}

/** GET /company/service/imports: each import's state for the Integration screen. */
export interface ImportStatusView {
  type: SyncImport;
  enabled: boolean;
  /** The last run (the one in progress, when one is). */
  last_run: SyncRunView | null;
  /** The last error of any run, with when it happened (kept after a later success for the user to see). */
  last_error: { at: string; message: string } | null;
  /** SQL only: the mapping in force (never the credentials). */
  mapping?: SqlMapping;
  /** SQL only: engine, host and database of the stored connection (no user, no password). */
  connection?: { engine: SqlEngine; host: string; database: string } | null;
}
export interface ImportStatusList {
  items: ImportStatusView[];
}
