/**
 * Master-data imports (SQL database, Rivile GAMA): one run reads the source page by page and upserts each row
 * (./upsert.ts), saving its position and counts after every page. A run holds a lease on the import's state, so
 * the schedule and "sync now" never run the same import twice at once; a run that reaches its time budget stops
 * between pages ("partial") and the next run continues from the saved position (so does a run that died half-way,
 * once its lease has run out); a page still being read or written when the run's time limit comes is given up and
 * read again by the next run, so a slow source never holds a run (or "sync now"'s API call) past its limit; a failure
 * is kept as the last error, visible on the Integration screen.
 */
import { AppError } from '../../../../shared/errors';
import { z } from 'zod';
import { SQL_MAPPING_DEFAULTS, SYNC_IMPORTS, type ImportStatusView, type SqlCredentials, type SqlMapping, type SqlMappingSaved, type SyncCounts, type SyncImport, type SyncKind, type SyncRunView } from '../../../../shared/schemas/master-data-sync';
import { TargetError, type IntegrationStore, type RivileApi, type SecretBox } from '../../integrations/ports';
import type { Clock, IdGenerator } from '../../ports';
import { identifierKey, nameKey } from '../keys';
import type { MasterDataStore } from '../ports';
import { checkSqlMapping } from './mapping-check';
import type { SqlConnector, SqlSession, SyncContinuation, SyncContinueMessage, SyncPosition, SyncState, SyncStateStore } from './ports';
import { rivileSource, sqlSource, type SourceRow, type SyncSource } from './sources';
import { upsertCategory, upsertItem, upsertStakeholder, type UpsertOutcome } from './upsert';

export interface SyncDeps {
  masterData: MasterDataStore;
  clock: Clock;
  ids: IdGenerator;
  syncState: SyncStateStore;
  integrations: IntegrationStore;
  secrets: SecretBox;
  sql: SqlConnector;
  rivile: RivileApi;
}

/** Rows written at the same time within a page. */
export const UPSERT_CONCURRENCY = 8;
/** Rejected rows kept on the run for the user. */
export const REJECTED_EXAMPLES_MAX = 5;
/** A lease outlives the run's budget by this much (a crashed run frees the import after it). */
export const LEASE_GRACE_MS = 60_000;
/** The schedule syncs an import again this long after its last complete run. */
export const SYNC_INTERVAL_MS = 60 * 60_000;
export const SYNC_BUSY_MSG = 'A sync of this import is already running';
export const SYNC_OFF_MSG = 'Switch the import on first';

const secretContext = (companyId: string, type: SyncImport) => ({ company_id: companyId, integration: type });

/** The stored credentials of an import, opened (never logged, never answered). */
export async function openImportCredentials<T>(deps: Pick<SyncDeps, 'integrations' | 'secrets'>, companyId: string, type: SyncImport): Promise<T | undefined> {
  const stored = await deps.integrations.getCredentials(companyId, type);
  if (!stored) return undefined;
  return JSON.parse(await deps.secrets.open(stored.sealed, secretContext(companyId, type))) as T;
}

export const mappingOf = (state: SyncState | undefined): SqlMapping => state?.mapping ?? SQL_MAPPING_DEFAULTS;

async function openSource(deps: SyncDeps, state: SyncState): Promise<SyncSource> {
  if (state.type === 'sql_import') {
    const creds = await openImportCredentials<{ kind: 'sql'; sql: SqlCredentials }>(deps, state.company_id, 'sql_import');
    if (!creds) throw new TargetError('No stored credentials; switch the import off and on again', false);
    return sqlSource(await deps.sql.open(creds.sql), creds.sql, mappingOf(state));
  }
  const creds = await openImportCredentials<{ kind: 'api_key'; api_key: string }>(deps, state.company_id, 'rivile_import');
  if (!creds) throw new TargetError('No stored API key; switch the import off and on again', false);
  return rivileSource(deps.rivile, creds.api_key);
}

const zero = (): SyncCounts => ({ created: 0, updated: 0, unchanged: 0, rejected: 0 });

function upsert(deps: SyncDeps, companyId: string, r: SourceRow): Promise<UpsertOutcome> {
  if (r.kind === 'suppliers' || r.kind === 'customers') return upsertStakeholder(deps, companyId, r.type, r.row);
  if (r.kind === 'categories') return upsertCategory(deps, companyId, r.row);
  return upsertItem(deps, companyId, r.row);
}

/**
 * The product record a row lands on (codes and item names compared as the product compares them). Rows of a page
 * that land on one record are written one after the other in source order, so the first of them is the one the
 * record is imported from and the others are rejected (./upsert.ts), whichever write would have finished first.
 */
function recordKey(r: SourceRow): string {
  const code = (c: string) => identifierKey(c) || nameKey(c);
  if (r.kind === 'items') return `items#${nameKey(r.row.name)}`;
  if (r.kind === 'categories') return `categories#${code(r.row.code)}`;
  return `${r.kind}#${code(r.row.code)}`;
}

/** A page's rows grouped by the record they land on, in source order. */
function byRecord(rows: readonly SourceRow[]): SourceRow[][] {
  const groups = new Map<string, SourceRow[]>();
  for (const r of rows) {
    const key = recordKey(r);
    const group = groups.get(key);
    if (group) group.push(r);
    else groups.set(key, [r]);
  }
  return [...groups.values()];
}

/** Runs `task` over the items, at most `limit` at a time; no item starts once `stopped` says so. */
async function inParallel<T>(items: readonly T[], limit: number, task: (item: T) => Promise<void>, stopped: () => boolean = () => false): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length && !stopped()) await task(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/** A failure as the user may read it: a source's own message, else a generic one (details go to the log). */
function errorMessage(error: unknown): string {
  if (error instanceof TargetError) return error.message.slice(0, 500);
  return 'The sync stopped on an unexpected error';
}

/**
 * `pages`: the pages this run read and wrote to the end (0 when it stopped before finishing one); `nothing`: the run
 * was asked only to continue (`onlyContinue`) and the import had no run stopped half-way.
 */
export type SyncResult = { status: 'ran'; run: SyncRunView; pages: number } | { status: 'busy' } | { status: 'off' } | { status: 'nothing' };

const TIMED_OUT = Symbol('timed out');

/**
 * `work` (started with a signal that aborts it), or TIMED_OUT when `ms` pass first: the work is then aborted and
 * given up (its late result or failure is ignored).
 */
async function within<T>(ms: number, work: (signal: AbortSignal) => Promise<T>): Promise<T | typeof TIMED_OUT> {
  if (ms <= 0) return TIMED_OUT;
  const controller = new AbortController();
  const running = work(controller.signal);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<typeof TIMED_OUT>((resolve) => {
    timer = setTimeout(() => resolve(TIMED_OUT), ms);
  });
  try {
    const result = await Promise.race([running, timeout]);
    if (result === TIMED_OUT) {
      running.catch(() => undefined);
      controller.abort();
    }
    return result;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * One run of an import of a company. The budget (`budgetMs`) is checked between pages: a run past it stops there.
 * The limit (`limitMs`, at least the budget) bounds everything: opening the source and each page's read and writes
 * are given up when it comes, and the run stops before that page, so it ends by the limit whatever the source does.
 * Either stop is `partial` and the next run continues from the saved position. A run continues a partial one (same
 * counts); otherwise it starts from the first page.
 */
export async function runSync(
  deps: SyncDeps,
  companyId: string,
  type: SyncImport,
  trigger: SyncRunView['trigger'],
  budgetMs: number,
  limitMs: number = budgetMs,
  options: { onlyContinue?: boolean } = {},
): Promise<SyncResult> {
  const started = deps.clock.now();
  const deadline = started.getTime() + budgetMs;
  const limit = started.getTime() + Math.max(budgetMs, limitMs);
  const left = () => limit - deps.clock.now().getTime();
  const runId = deps.ids.newId();
  const state = await deps.syncState.acquire(companyId, type, runId, started.toISOString(), new Date(limit + LEASE_GRACE_MS).toISOString());
  if (state === 'busy') return { status: 'busy' };
  if (state === 'none') return { status: 'off' };
  const save = (patch: Pick<SyncState, 'run' | 'position' | 'last_error'>, release: boolean, nowIso = deps.clock.now().toISOString()) =>
    deps.syncState.saveRun(companyId, type, runId, state.settings_version, patch, release, nowIso);
  /** Gives the lease back with the state as it was (nothing run). */
  const leaveAsItWas = async (nowIso: string) => {
    const left = await save({ run: state.run, position: state.position, last_error: state.last_error }, true, nowIso);
    if (!left) await deps.syncState.abandonRun(companyId, type, runId, null, deps.clock.now().toISOString());
  };
  /**
   * The settings changed while the run held the import (switched off or on again, a new connection or mapping): what
   * it read follows the old ones, so it ends here without a position and the next run starts over with the new ones.
   */
  const overtaken = async (run: SyncRunView, pages: number): Promise<SyncResult> => {
    const ended: SyncRunView = { ...run, outcome: 'partial', finished_at: deps.clock.now().toISOString() };
    await deps.syncState.abandonRun(companyId, type, runId, ended, ended.finished_at!);
    return { status: 'ran', run: ended, pages };
  };
  if (!state.enabled) {
    await leaveAsItWas(started.toISOString());
    return { status: 'off' };
  }
  // A run left `running` died half-way (a timeout, a crash): its lease has run out, or it would not be ours now.
  const continuing = state.position && state.run && (state.run.outcome === 'partial' || state.run.outcome === 'failed' || state.run.outcome === 'running');
  // A continuation asked for a run that stopped for now; the import finished (or failed) meanwhile: nothing to do.
  if (options.onlyContinue && !(continuing && state.run!.outcome !== 'failed')) {
    await leaveAsItWas(state.updated_at);
    return { status: 'nothing' };
  }
  const run: SyncRunView = continuing
    ? { ...state.run!, outcome: 'running', finished_at: null, error: null }
    : emptyRun(trigger, started);
  let position: SyncPosition = continuing ? state.position! : { step: 0, after: null };
  let lastError = state.last_error;
  let source: SyncSource | undefined;
  // A call given up at the limit may still be running: the source is closed without waiting for it.
  let gaveUp = false;
  let pages = 0;
  /** Ends the run with its outcome and gives the lease back; a run whose settings changed meanwhile is overtaken. */
  const end = async (outcome: 'partial' | 'done' | 'failed', at: SyncPosition | null): Promise<SyncResult> => {
    run.outcome = outcome;
    run.finished_at = deps.clock.now().toISOString();
    if (!(await save({ run, position: at, last_error: lastError }, true))) return await overtaken(run, pages);
    return { status: 'ran', run, pages };
  };
  const stopForNow = () => end('partial', position);
  try {
    if (!(await save({ run, position, last_error: lastError }, false, started.toISOString()))) return await overtaken(run, 0);
    const opening = openSource(deps, state);
    const opened = await within(left(), () => opening);
    if (opened === TIMED_OUT) {
      void opening.then((late) => late.close()).catch(() => undefined);
      return await stopForNow();
    }
    source = opened;
    while (position.step < source.steps) {
      if (deps.clock.now().getTime() >= deadline) return await stopForNow();
      const open = source;
      const page = await within(left(), (signal) => open.readPage(position.step, position.after, signal));
      if (page === TIMED_OUT) {
        gaveUp = true;
        return await stopForNow();
      }
      // The page's counts join the run's only once all of it is written (a page given up is read again next time).
      const pageCounts: Partial<Record<SyncKind, SyncCounts>> = {};
      const pageRejected: string[] = [];
      const note = (kind: SyncKind, outcome: UpsertOutcome['outcome'], reason?: string, n = 1) => {
        const counts = (pageCounts[kind] ??= zero());
        counts[outcome] += n;
        if (reason !== undefined) pageRejected.push(`${kind}: ${reason}`);
      };
      let stopped = false;
      const written = await within(left(), () =>
        inParallel(
          byRecord(page.rows),
          UPSERT_CONCURRENCY,
          async (group) => {
            for (const r of group) {
              if (stopped) return;
              const outcome = await upsert(deps, companyId, r);
              note(r.kind as SyncKind, outcome.outcome, outcome.outcome === 'rejected' ? outcome.reason : undefined);
            }
          },
          () => stopped,
        ),
      );
      if (written === TIMED_OUT) {
        // The rows written so far stay (the next run finds them unchanged); no further row of the page starts.
        stopped = true;
        gaveUp = true;
        return await stopForNow();
      }
      for (const s of page.skipped ?? []) note(s.kind, 'rejected', s.reason, s.count);
      for (const [kind, c] of Object.entries(pageCounts) as [SyncKind, SyncCounts][]) {
        const counts = (run.counts[kind] ??= zero());
        for (const k of ['created', 'updated', 'unchanged', 'rejected'] as const) counts[k] += c[k];
      }
      run.rejected_examples.push(...pageRejected.slice(0, Math.max(0, REJECTED_EXAMPLES_MAX - run.rejected_examples.length)));
      position = page.next === null ? { step: position.step + 1, after: null } : { step: position.step, after: page.next };
      pages += 1;
      if (!(await save({ run, position, last_error: lastError }, false))) return await overtaken(run, pages);
    }
    return await end('done', null);
  } catch (error) {
    if (!(error instanceof TargetError)) console.error('[master-data sync] run failed', { companyId, type, error: (error as Error)?.message });
    run.error = errorMessage(error);
    lastError = { at: deps.clock.now().toISOString(), message: run.error };
    return await end('failed', position);
  } finally {
    const closing = source?.close().catch(() => undefined);
    if (!gaveUp) await closing;
  }
}

function emptyRun(trigger: SyncRunView['trigger'], started: Date): SyncRunView {
  return { trigger, started_at: started.toISOString(), finished_at: null, outcome: 'running', counts: {}, rejected_examples: [], error: null };
}

/** Where a failure to hand a run on is told (the function's log). */
export interface SyncLog {
  warn(msg: string, data?: Record<string, unknown>): void;
}

/** What "sync now" and the continuing job need besides the import's own adapters. */
export type ContinuingSyncDeps = SyncDeps & { continuation: SyncContinuation; log: SyncLog };

/**
 * "Sync now" (POST /company/service/imports/sync): the run's result, 409 while another run holds the import. A run
 * that stopped for now is handed to the continuing job at once (`continuation`), so it goes on in the background
 * within seconds instead of at the schedule's next turn; a failure to hand it over is logged and leaves it to the
 * schedule, which continues partial runs too.
 */
export async function syncNow(
  deps: ContinuingSyncDeps,
  companyId: string,
  type: SyncImport,
  budgetMs: number,
): Promise<SyncRunView> {
  const result = await runSync(deps, companyId, type, 'manual', budgetMs);
  if (result.status === 'busy') throw new AppError('Conflict', SYNC_BUSY_MSG);
  if (result.status === 'off') throw new AppError('ValidationFailed', SYNC_OFF_MSG, [{ path: ['type'], message: SYNC_OFF_MSG }]);
  if (result.status === 'nothing') throw new Error('sync now is never only a continuation');
  if (result.run.outcome === 'partial') await handOver(deps, { company_id: companyId, type });
  return result.run;
}

async function handOver(deps: Pick<ContinuingSyncDeps, 'continuation' | 'log'>, message: SyncContinueMessage): Promise<void> {
  try {
    await deps.continuation.send(message);
  } catch (error) {
    deps.log.warn('master-data sync: the rest was not handed to the sync queue; the schedule continues it', {
      company_id: message.company_id,
      type: message.type,
      error: errorMessage(error),
    });
  }
}

const continueMessageSchema = z.object({ company_id: z.string().min(1).max(128), type: z.enum(SYNC_IMPORTS) });

/** A sync queue message's body, or null when it is not one (dropped by the job). */
export function parseContinueMessage(body: string): SyncContinueMessage | null {
  try {
    const parsed = continueMessageSchema.safeParse(JSON.parse(body));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * The continuing job (SQS sync queue): continues the import's run that stopped for now, within `budgetMs` (a page
 * may run to `limitMs`). Nothing when the import has no such run any more (the schedule finished it, or it was
 * switched off), or while another run holds it (that run hands on what it leaves). A turn that stopped for now again
 * after finishing at least one page is handed on once more; one that finished no page (a source that does not answer
 * in time) is left to the schedule, so a stuck source is not asked again and again at once.
 */
export async function continueSync(
  deps: ContinuingSyncDeps,
  message: SyncContinueMessage,
  budgetMs: number,
  limitMs: number = budgetMs,
): Promise<SyncResult> {
  const result = await runSync(deps, message.company_id, message.type, 'schedule', budgetMs, limitMs, { onlyContinue: true });
  if (result.status === 'ran' && result.run.outcome === 'partial' && result.pages > 0) await handOver(deps, message);
  return result;
}

/** Whether the schedule should run an import now: a partial or failed run continues, a done one waits the interval. */
export function isDue(state: SyncState | undefined, now: Date): boolean {
  if (!state?.enabled) return false;
  if (state.lease_until && state.lease_until > now.toISOString()) return false;
  const run = state.run;
  if (!run || run.outcome === 'partial' || run.outcome === 'running') return true;
  const finished = Date.parse(run.finished_at ?? run.started_at);
  return Number.isNaN(finished) || now.getTime() - finished >= SYNC_INTERVAL_MS || (run.outcome === 'failed' && now.getTime() - finished >= SYNC_INTERVAL_MS / 4);
}

/** What the schedule keeps of its invocation's budget for itself (the last state writes, the function's end). */
export const SCHEDULE_RESERVE_MS = 5_000;
/** A turn of one import within a schedule invocation: its share of what is left, within these bounds. */
export const SCHEDULE_TURN_MIN_MS = 5_000;
export const SCHEDULE_TURN_MAX_MS = 60_000;

/**
 * The schedule: every switched-on import that is due, within the invocation's budget, taking turns. The due
 * imports are served the one served longest ago first (its state written longest ago: a run writes it after every
 * page); each turn is a share of the budget left (what is left over the imports still waiting, 5 to 60 seconds), and
 * an import whose turn ended partial waits for the next round, where it continues from its saved position. So a
 * small import runs in the first invocation even while a large one takes many, and an import left out of a short
 * invocation goes first in the next. An import still `partial` when the invocation's budget is spent is handed to
 * the continuing job (as "sync now" hands one on), unless its last turn finished no page: it goes on at once instead
 * of at the next invocation, 15 minutes later.
 */
export async function runSchedule(deps: ContinuingSyncDeps, budgetMs: number): Promise<{ ran: number }> {
  const deadline = deps.clock.now().getTime() + budgetMs;
  const left = () => deadline - SCHEDULE_RESERVE_MS - deps.clock.now().getTime();
  const due: { company_id: string; type: SyncImport; served: string }[] = [];
  let cursor: string | undefined;
  do {
    const page = await deps.syncState.listEnabled(cursor);
    for (const { company_id, type } of page.items) {
      if (left() <= 0) break;
      const state = await deps.syncState.get(company_id, type);
      if (state && isDue(state, deps.clock.now())) due.push({ company_id, type, served: state.updated_at });
    }
    cursor = page.cursor ?? undefined;
  } while (cursor && left() > 0);
  due.sort((a, b) => (a.served < b.served ? -1 : a.served > b.served ? 1 : 0));
  const ran = new Set<string>();
  /** The imports whose last turn stopped for now after at least one page, by import. */
  const advancing = new Map<string, SyncContinueMessage>();
  let round = due;
  while (round.length > 0 && left() > 0) {
    const partial: typeof due = [];
    for (const [i, item] of round.entries()) {
      const remaining = left();
      if (remaining <= 0) break;
      const turn = Math.min(remaining, Math.max(SCHEDULE_TURN_MIN_MS, Math.min(SCHEDULE_TURN_MAX_MS, remaining / (round.length - i))));
      // A page may run past its turn, never past the invocation's budget.
      // Later rounds only continue: the continuing job may have finished the import meanwhile (no run from the start).
      const result = await runSync(deps, item.company_id, item.type, 'schedule', turn, remaining, { onlyContinue: round !== due });
      const key = `${item.type}#${item.company_id}`;
      advancing.delete(key);
      if (result.status !== 'ran') continue;
      ran.add(key);
      if (result.run.outcome !== 'partial') continue;
      partial.push(item);
      if (result.pages > 0) advancing.set(key, { company_id: item.company_id, type: item.type });
    }
    round = partial;
  }
  for (const message of advancing.values()) await handOver(deps, message);
  return { ran: ran.size };
}

/** GET /company/service/imports: each import's state (no credentials; the SQL connection's engine, host, database). */
export async function importStatuses(deps: Pick<SyncDeps, 'syncState'>, companyId: string, flags: Record<SyncImport, boolean>): Promise<ImportStatusView[]> {
  const [sql, rivile] = await Promise.all([deps.syncState.get(companyId, 'sql_import'), deps.syncState.get(companyId, 'rivile_import')]);
  const view = (type: SyncImport, s: SyncState | undefined): ImportStatusView => ({
    type,
    enabled: flags[type],
    last_run: s?.run ?? null,
    last_error: s?.last_error ?? null,
  });
  return [{ ...view('sql_import', sql), mapping: mappingOf(sql), connection: sql?.connection ?? null }, view('rivile_import', rivile)];
}

/**
 * What "sync now" may spend inside an API call (API Gateway gives up after 29 s): its budget and its limit, so a
 * slow page is given up rather than holding the answer; the schedule continues the rest.
 */
export const SYNC_NOW_BUDGET_MS = 20_000;

/** GET /company/service/imports for the caller's company (company admin; the route checks the role). */
export async function importStatusesOf(
  deps: Pick<SyncDeps, 'syncState'> & { store: { getCompanies(ids: string[]): Promise<{ integrations?: Partial<Record<string, boolean>> }[]> } },
  companyId: string,
): Promise<{ items: ImportStatusView[] }> {
  const [company] = await deps.store.getCompanies([companyId]);
  if (!company) throw new AppError('NotFound', 'Company not found');
  const flags = { sql_import: Boolean(company.integrations?.sql_import), rivile_import: Boolean(company.integrations?.rivile_import) };
  return { items: await importStatuses(deps, companyId, flags) };
}

/**
 * PUT /company/service/sql/mapping: the mapping the next run reads with. With a stored connection, every table and
 * column of the kinds switched on is first read from the database (./mapping-check.ts): a name the database lacks
 * is a 422 on its field and nothing is saved. A connection that cannot be opened does not hold the save back (the
 * database may be down for a while): the mapping is saved and the answer says why it was not checked.
 */
export async function saveSqlMapping(
  deps: Pick<SyncDeps, 'syncState' | 'clock' | 'integrations' | 'secrets' | 'sql'>,
  companyId: string,
  mapping: SqlMapping,
): Promise<SqlMappingSaved> {
  const creds = await openImportCredentials<{ kind: 'sql'; sql: SqlCredentials }>(deps, companyId, 'sql_import');
  let unchecked: string | null = creds ? null : MAPPING_UNCHECKED_NO_CONNECTION;
  if (creds) {
    let session: SqlSession | undefined;
    try {
      session = await deps.sql.open(creds.sql);
    } catch (error) {
      if (!(error instanceof TargetError)) throw error;
      unchecked = error.message;
    }
    if (session) {
      let problems: Awaited<ReturnType<typeof checkSqlMapping>> = [];
      try {
        problems = await checkSqlMapping(session, creds.sql.engine, mapping);
      } catch (error) {
        // The connection dropped or a probe timed out half-way: as when it could not be opened
        if (!(error instanceof TargetError)) throw error;
        unchecked = error.message;
      } finally {
        await session.close().catch(() => undefined);
      }
      if (problems.length > 0) {
        throw new AppError('ValidationFailed', problems[0]!.message, problems.map((p) => ({ path: [...p.path], message: p.message })));
      }
    }
  }
  await deps.syncState.putMapping(companyId, mapping, deps.clock.now().toISOString());
  return { mapping, unchecked };
}

/** Why a mapping was saved unchecked when no connection is stored (the import was never switched on). */
export const MAPPING_UNCHECKED_NO_CONNECTION = 'no connection is stored; switch the import on first';
