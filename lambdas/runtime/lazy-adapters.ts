/**
 * Adapters loaded on first use (dynamic import: their AWS SDK clients are not loaded, and not bundled, for a handler
 * that does not declare their need), guarded by the handler's declared needs (shared/needs.ts).
 */
import { appendFileSync } from 'node:fs';
import type { FileStore } from '../core/documents/ports';
import type { LiveEvents } from '../core/ports';
import { AWS_NEEDS, type AwsNeed } from '../../shared/needs';
import { handlerNeeds } from '../../shared/routes';
import { OFFICE_CONVERSION_PREFIX } from '../../shared/schemas/office-conversion';
import { env } from './env';

/**
 * The modules loaded lazily, per need: infra/build/bundle-handlers.ts leaves them (and what only they import) out
 * of the bundle of a handler whose declaration lacks all of the listed needs.
 */
export const LAZY_ADAPTER_MODULES: ReadonlyArray<{ module: string; needs: readonly AwsNeed[] }> = [
  { module: 'lambdas/adapters/s3/files.ts', needs: ['documentsRead', 'documentsBucket', 'officeConversion'] },
  { module: 'lambdas/adapters/ws/live-events.ts', needs: ['webSocketManage'] },
  { module: 'lambdas/adapters/secrets-manager/secret-value.ts', needs: ['googleClientSecret'] },
];

export interface NeedsCheck {
  needs: ReadonlySet<AwsNeed>;
  /** The route key or handler, for the error message. */
  who: string;
}

/**
 * Refuses a call outside the declared needs. With NEEDS_AUDIT_FILE set (an audit of the declarations), the call is
 * recorded there (`<who>\t<need>` per line) and allowed.
 */
export function requireNeed(check: NeedsCheck | undefined, anyOf: readonly AwsNeed[], what: string): void {
  if (!check || anyOf.some((n) => check.needs.has(n))) return;
  const audit = process.env.NEEDS_AUDIT_FILE;
  if (audit) {
    appendFileSync(audit, `${check.who}\t${anyOf[0]}\n`);
    return;
  }
  throw new Error(
    `${check.who} calls ${what} (${AWS_NEEDS[anyOf[0]!]}) without declaring the need ` +
      `'${anyOf[0]}' in shared/routes.ts; its Lambda role would not allow it.`,
  );
}

let filesModule: Promise<FileStore> | undefined;
const loadFiles = () => (filesModule ??= import('../adapters/s3/files').then((m) => m.s3Files));

const READ: readonly AwsNeed[] = ['documentsRead', 'documentsBucket'];
const WRITE: readonly AwsNeed[] = ['documentsBucket'];

/** Needs that allow some calls on the keys of one prefix only (their role grants that prefix only). */
const PREFIX_NEEDS: ReadonlyArray<{ need: AwsNeed; prefix: string; calls: readonly string[] }> = [
  { need: 'officeConversion', prefix: OFFICE_CONVERSION_PREFIX, calls: ['get', 'put'] },
];

function allowedByPrefix(check: NeedsCheck | undefined, name: string, key: unknown): boolean {
  if (!check || typeof key !== 'string') return false;
  return PREFIX_NEEDS.some((p) => check.needs.has(p.need) && p.calls.includes(name) && key.startsWith(p.prefix) && !key.includes('..'));
}

/** The documents bucket, loaded on first call; reads need documentsRead or documentsBucket, writes documentsBucket. */
export function guardedFiles(check: NeedsCheck | undefined): FileStore {
  const call =
    <A extends unknown[], R>(anyOf: readonly AwsNeed[], name: string, pick: (f: FileStore) => (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      if (!allowedByPrefix(check, name, args[0])) requireNeed(check, anyOf, `files.${name}`);
      const files = await loadFiles();
      return pick(files).apply(files, args);
    };
  return {
    bucket: () => env().DOCUMENTS_BUCKET,
    get: call(READ, 'get', (f) => f.get),
    head: call(READ, 'head', (f) => f.head),
    getJson: <T>(key: string) => call(READ, 'getJson', (f) => f.getJson<T>)(key),
    presignGet: call(READ, 'presignGet', (f) => f.presignGet),
    put: call(WRITE, 'put', (f) => f.put),
    putJson: call(WRITE, 'putJson', (f) => f.putJson),
    delete: call(WRITE, 'delete', (f) => f.delete),
    deletePrefix: call(WRITE, 'deletePrefix', (f) => f.deletePrefix),
    presignPut: call(WRITE, 'presignPut', (f) => f.presignPut),
  };
}

/**
 * The documents bucket of a job bounded by its `handlerNeeds` in shared/routes.ts, without the table adapters that
 * depsFor (lambdas/runtime/deps.ts) brings: for the office converter, whose bundle and role hold no DynamoDB.
 */
export function filesFor(handler: string): FileStore {
  return guardedFiles({ needs: new Set(handlerNeeds[handler] ?? []), who: handler });
}

let liveModule: Promise<LiveEvents> | undefined;
const loadLive = () => (liveModule ??= import('../adapters/ws/live-events').then((m) => m.wsLiveEvents));

/** Live events, loaded on first publish; they need webSocketManage. */
export function guardedLive(check: NeedsCheck | undefined): LiveEvents {
  return {
    async publish(companyId, event, payload) {
      requireNeed(check, ['webSocketManage'], 'live.publish');
      return (await loadLive()).publish(companyId, event, payload);
    },
    async publishToUser(userId, event, payload) {
      requireNeed(check, ['webSocketManage'], 'live.publishToUser');
      return (await loadLive()).publishToUser(userId, event, payload);
    },
    async publishAll(events) {
      requireNeed(check, ['webSocketManage'], 'live.publishAll');
      const live = await loadLive();
      if (live.publishAll) return live.publishAll(events);
      for (const e of events) await ('companyId' in e ? live.publish(e.companyId, e.event, e.payload) : live.publishToUser(e.userId, e.event, e.payload));
    },
  };
}

/**
 * The Google OAuth client secret, asked for at the first token exchange or refresh (never at cold start); it needs
 * googleClientSecret. Local mode: GOOGLE_CLIENT_SECRET itself. AWS: the Secrets Manager secret GOOGLE_CLIENT_SECRET_ID
 * names, read once per container (lambdas/adapters/secrets-manager/secret-value.ts). Neither: '' (not configured).
 */
export function guardedGoogleClientSecret(check: NeedsCheck | undefined): () => Promise<string> {
  return async () => {
    requireNeed(check, ['googleClientSecret'], 'the Google client secret');
    const e = env();
    if (e.GOOGLE_CLIENT_SECRET) return e.GOOGLE_CLIENT_SECRET;
    if (!e.GOOGLE_CLIENT_SECRET_ID) return '';
    const { secretValue } = await import('../adapters/secrets-manager/secret-value');
    return secretValue(e.GOOGLE_CLIENT_SECRET_ID);
  };
}
