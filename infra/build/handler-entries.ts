/**
 * Every Lambda entry point of the product, derived from the exports of shared/routes.ts only.
 * Nothing here lists routes: adding a route (or a job) to the route module is enough for CDK to
 * bundle its handler, create its function and wire its event source.
 */
import * as routeModule from '../../shared/routes';
import type { RouteDef } from '../../shared/routes';
import { DEFAULT_NEEDS, type AwsNeed } from '../../shared/needs';

/**
 * Background jobs CDK knows how to wire, keyed by the property name expected in an optional
 * `export const jobHandlers = { processDocument: 'jobs/process-document' } as const` of shared/routes.ts.
 */
export const KNOWN_JOBS = {
  processDocument: 'S3 ObjectCreated under uploads/ in the documents bucket → SQS uploads queue → Lambda',
  receiveEmail: 'SES receipt rule → S3 inbound/ in the documents bucket → SQS inbound queue → Lambda (EmailInStack)',
  answerEmailRecipients: 'SES receipt rule, first action → Lambda (RequestResponse): bounces unknown Email-in recipients (EmailInStack)',
  exportDocument: 'Confirm with send / bulk send → SQS export queue → Lambda',
  importMasterData: 'S3 ObjectCreated under imports/ in the documents bucket → SQS imports queue → Lambda',
  processDocumentDeadLetter: 'Dead-letter queue of the uploads queue → Lambda (documents whose job died end failed)',
  sweepProcessing: 'EventBridge schedule → Lambda (documents stuck in processing end failed)',
  importDriveFiles: 'EventBridge schedule → Google Drive and Dropbox import job Lambda (DriveImportSchedule)',
  syncMasterData: 'EventBridge schedule (every 15 minutes) → Lambda (master-data imports from SQL and Rivile)',
  convertOffice: 'Invoked by the processing job → container image Lambda with LibreOffice (office files to PDF, ProcessingStack)',
  purgeCompany: 'DELETE /company → SQS company purge queue → Lambda (re-queues what is left; ProcessingStack)',
  continueMasterDataSync: 'Sync now that stopped for now → SQS master-data sync queue → Lambda (continues the import, re-queues what is left; ProcessingStack)',
} as const;
export type JobName = keyof typeof KNOWN_JOBS;

export interface WebsocketEntry {
  routeKey: string;
  handler: string;
  needs?: readonly AwsNeed[];
}

export interface HandlerEntries {
  routes: readonly RouteDef[];
  websocket: readonly WebsocketEntry[];
  triggers: { postConfirmation: string; preSignUp: string };
  jobs: Partial<Record<JobName, string>>;
  /** Declared needs of jobs and triggers by handler path (`handlerNeeds` of shared/routes.ts). */
  handlerNeeds: Readonly<Record<string, readonly AwsNeed[]>>;
}

function isJobName(name: string): name is JobName {
  return Object.prototype.hasOwnProperty.call(KNOWN_JOBS, name);
}

/**
 * Reads the optional `jobHandlers` export. Absent → no jobs (the queue is still created, without a consumer).
 * A job CDK cannot wire is an error: silently not deploying it would be worse than a failing synth.
 */
export function jobHandlersOf(mod: Readonly<Record<string, unknown>>): Partial<Record<JobName, string>> {
  const raw = mod.jobHandlers;
  if (raw === undefined) return {};
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new Error('shared/routes.ts: `jobHandlers` must be an object like { processDocument: "jobs/process-document" }');
  }
  const jobs: Partial<Record<JobName, string>> = {};
  for (const [name, handler] of Object.entries(raw)) {
    if (!isJobName(name)) {
      throw new Error(
        `shared/routes.ts: jobHandlers.${name} has no event source in infra (known: ${Object.keys(KNOWN_JOBS).join(', ')}). ` +
          'Wire it in infra/stacks/processing-stack.ts and add it to KNOWN_JOBS in infra/build/handler-entries.ts.',
      );
    }
    if (typeof handler !== 'string' || handler.length === 0) {
      throw new Error(`shared/routes.ts: jobHandlers.${name} must be a handler path under lambdas/ (without .ts)`);
    }
    jobs[name] = handler;
  }
  return jobs;
}

export function handlerEntries(mod: Readonly<Record<string, unknown>> = routeModule): HandlerEntries {
  const routes = mod.routes as readonly RouteDef[] | undefined;
  const websocket = mod.websocketRoutes as readonly WebsocketEntry[] | undefined;
  const triggers = mod.triggerHandlers as { postConfirmation: string; preSignUp: string } | undefined;
  if (!Array.isArray(routes) || !Array.isArray(websocket) || !triggers?.postConfirmation || !triggers.preSignUp) {
    throw new Error('shared/routes.ts must export routes, websocketRoutes and triggerHandlers.postConfirmation and .preSignUp');
  }
  const handlerNeeds = (mod.handlerNeeds ?? {}) as Readonly<Record<string, readonly AwsNeed[]>>;
  return { routes, websocket, triggers, jobs: jobHandlersOf(mod), handlerNeeds };
}

/**
 * The declared needs of every handler (least privilege, shared/needs.ts): routes and WebSocket routes (default
 * ['table']), jobs and triggers from `handlerNeeds`. A handler missing here has no declaration.
 */
export function declaredNeeds(entries: HandlerEntries): Record<string, readonly AwsNeed[]> {
  const out: Record<string, readonly AwsNeed[]> = {};
  const declare = (handler: string, needs: readonly AwsNeed[], where: string) => {
    const previous = out[handler];
    if (previous && [...previous].sort().join() !== [...needs].sort().join()) {
      throw new Error(`lambdas/${handler}.ts serves ${where} with other needs than its other entry; give each its own handler file`);
    }
    out[handler] = needs;
  };
  for (const r of entries.routes) declare(r.handler, r.needs ?? DEFAULT_NEEDS, `${r.method} ${r.path}`);
  for (const w of entries.websocket) declare(w.handler, w.needs ?? DEFAULT_NEEDS, `WebSocket ${w.routeKey}`);
  for (const [handler, needs] of Object.entries(entries.handlerNeeds)) declare(handler, needs, 'handlerNeeds');
  return out;
}

/** Every distinct handler path (routes, WebSocket routes, triggers, jobs), sorted. */
export function allHandlers(entries: HandlerEntries): string[] {
  const set = new Set<string>([
    ...entries.routes.map((r) => r.handler),
    ...entries.websocket.map((w) => w.handler),
    ...Object.values(entries.triggers),
    ...Object.values(entries.jobs).filter((h): h is string => typeof h === 'string'),
  ]);
  return [...set].sort();
}
