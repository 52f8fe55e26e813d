/**
 * Integrations (product.md "Integration screens", rules.md "POST company/service"): the kinds a company can
 * switch, the credentials pop-up's form (the web form and the handler share these schemas) and the body of
 * POST /company/service.
 */
import { z } from 'zod';
import { atMostCharacters, MSG } from './messages';

/** Integration kinds named in calls (product.md section 3). Google and Dropbox switch through drive/switch. */
export const SERVICE_TYPES = [
  'ftp_export',
  'nsoft_export',
  'rivile_export',
  'sql_import',
  'rivile_import',
  'display_imported_stakeholders',
  'display_imported_categories',
] as const;
export type ServiceType = (typeof SERVICE_TYPES)[number];

/** Export targets: a confirmed document is sent to each one the company has switched on. */
export const EXPORT_TARGETS = ['ftp_export', 'nsoft_export', 'rivile_export'] as const;
export type ExportTarget = (typeof EXPORT_TARGETS)[number];
export const isExportTarget = (t: string): t is ExportTarget => (EXPORT_TARGETS as readonly string[]).includes(t);

/** Kinds that need credentials, and which form they use. */
export const CREDENTIAL_KIND: Partial<Record<ServiceType, 'server' | 'api_key'>> = {
  ftp_export: 'server',
  nsoft_export: 'server',
  rivile_export: 'api_key',
  // Master-data imports: Rivile's import uses its own API key; the SQL import's form is sqlCredentialsSchema
  // (shared/schemas/master-data-sync.ts).
  rivile_import: 'api_key',
};

export const INTEGRATION_MSG = {
  credentialsRequired: 'Credentials are required to switch this integration on',
} as const;

/** History names of export outcomes. */
export const TARGET_LABEL: Record<ExportTarget, string> = { ftp_export: 'FTP', nsoft_export: 'NSOFT', rivile_export: 'Rivile' };

export const HOST_MAX = 253;
export const USER_MAX = 128;
export const SECRET_MAX = 256;

export const PORT_MIN = 1;
export const PORT_MAX = 65535;
export const PORT_RANGE_MESSAGE = `Enter a port from ${PORT_MIN} to ${PORT_MAX}`;

const optionalPort = z
  .union([z.number(), z.string()])
  .optional()
  .nullable()
  .transform((v, ctx) => {
    if (v === undefined || v === null || v === '') return undefined;
    const n = typeof v === 'number' ? v : /^\d+$/.test(v.trim()) ? Number(v.trim()) : NaN;
    if (!Number.isInteger(n)) {
      ctx.addIssue({ code: 'custom', message: MSG.notANumber });
      return z.NEVER;
    }
    // (a number, but no port: 70000 is not "Not a number")
    if (n < PORT_MIN || n > PORT_MAX) {
      ctx.addIssue({ code: 'custom', message: PORT_RANGE_MESSAGE });
      return z.NEVER;
    }
    return n;
  });

const req = (max: number) => z.string({ error: MSG.required }).trim().min(1, MSG.required).max(max, atMostCharacters(max));
/** Host names only: letters, digits, dots, dashes (an IPv6 address in brackets is not offered). */
const hostField = req(HOST_MAX).regex(/^[A-Za-z0-9.-]+$/, 'Enter a host name without protocol or path');

/** The credentials pop-up of FTP and NSOFT: Host, User, Password required; Port not required. */
export const serverCredentialsSchema = z.object({
  host: hostField,
  user: req(USER_MAX),
  password: z.string({ error: MSG.required }).min(1, MSG.required).max(SECRET_MAX, `At most ${SECRET_MAX} characters`),
  port: optionalPort,
});
export type ServerCredentials = z.infer<typeof serverCredentialsSchema>;

/** Rivile: the API key (its first 7 characters are the GAMA user that creates the records). */
export const apiKeyCredentialsSchema = z.object({
  api_key: req(SECRET_MAX).min(8, 'Enter the whole API key'),
});
export type ApiKeyCredentials = z.infer<typeof apiKeyCredentialsSchema>;

/** Raw credential object as sent; checked against the kind's schema by the service. */
export const credentialInputSchema = z
  .object({
    host: z.string().max(HOST_MAX, atMostCharacters(HOST_MAX)).optional(),
    user: z.string().max(USER_MAX, atMostCharacters(USER_MAX)).optional(),
    password: z.string().max(SECRET_MAX, atMostCharacters(SECRET_MAX)).optional(),
    port: z.union([z.number(), z.string().max(5)]).optional().nullable(),
    api_key: z.string().max(SECRET_MAX, atMostCharacters(SECRET_MAX)).optional(),
    // SQL import: the database name and the engine (shared/schemas/master-data-sync.ts).
    database: z.string().max(128, atMostCharacters(128)).optional(),
    engine: z.string().max(16).optional(),
    trust_server_certificate: z.boolean({ error: 'Must be true or false' }).optional(),
    allow_unencrypted: z.boolean({ error: 'Must be true or false' }).optional(),
    ca_certificate: z.string({ error: 'Paste the certificate as text' }).max(100_000, 'At most 100000 characters').optional(),
  })
  .strict();

export const postServiceSchema = z.object({
  type: z.enum(SERVICE_TYPES),
  enabled: z.boolean(),
  /** Needed to switch FTP, NSOFT or Rivile on; without it the stored credentials are tested again. */
  credential: credentialInputSchema.optional().nullable(),
  /** When switching off: keep the stored credentials for switching on again (default: delete them). */
  keep_credentials: z.boolean().optional(),
});
export type PostServiceInput = z.infer<typeof postServiceSchema>;
