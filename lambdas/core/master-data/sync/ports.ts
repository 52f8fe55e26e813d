/**
 * What the master-data imports (SQL database, Rivile GAMA) need from the outside world. Adapters:
 * lambdas/adapters/sql (the database drivers) and lambdas/adapters/ddb/sync-store.ts (the import's state item).
 */
import type { SqlCredentials, SqlEngine, SqlMapping, SyncImport, SyncRunView } from '../../../../shared/schemas/master-data-sync';
import { TargetError } from '../../integrations/ports';

/** One open, read-only session of a source database. */
export interface SqlSession {
  /** Runs one SELECT with positional parameters (placeholders as the engine writes them). */
  query(sql: string, params: unknown[]): Promise<Record<string, unknown>[]>;
  close(): Promise<void>;
}

/**
 * A query failed because the server could not convert the source's text to the session's UTF-8 (PostgreSQL
 * SQLSTATE 22021 or 22P05: an SQL_ASCII database holding Windows-1257 bytes). The import reads the page again with
 * the text as bytes (./sql.ts `pageQueryAsBytes`) and decodes it itself (./text.ts).
 */
export class SourceTextError extends TargetError {
  constructor(message: string) {
    super(message, false);
    this.name = 'SourceTextError';
  }
}

/**
 * Opens read-only sessions with connect and statement timeouts. A failure to connect or log in rejects with a
 * TargetError carrying the server's message (shown on the Host field).
 */
export interface SqlConnector {
  open(credentials: SqlCredentials): Promise<SqlSession>;
}

/**
 * Where an unfinished run continues: the step (kind of record) and the last key (SQL) or page (Rivile) done. A key
 * whose stored bytes are not UTF-8 (read from an SQL_ASCII database) is kept as those bytes, `{ hex }`.
 */
export interface SyncPosition {
  step: number;
  after: SourceAfter;
}
export type SourceAfter = string | number | { hex: string } | null;

/** The state of one import of one company (one item, docs/data-model.md "Master-data imports"). */
export interface SyncState {
  company_id: string;
  type: SyncImport;
  enabled: boolean;
  /** SQL only: the mapping (defaults until the admin saves one). */
  mapping: SqlMapping | null;
  /** The run in progress or the last one. */
  run: SyncRunView | null;
  /** Set while a run is partial (or failed half-way): the next run continues there. */
  position: SyncPosition | null;
  last_error: { at: string; message: string } | null;
  /** SQL only: what the Integration screen shows of the stored connection (the credentials stay sealed). */
  connection: { engine: SqlEngine; host: string; database: string } | null;
  /** The run holding the state; a run is refused while another one's lease lasts. */
  lease_run_id: string | null;
  lease_until: string | null;
  /**
   * Counts the changes of the import's settings (switch on/off, connection, mapping). A run saves its progress only
   * while the settings are those it started with: a run overtaken by a change ends without a position.
   */
  settings_version: number;
  updated_at: string;
}

/** What taking the lease found: the state (now the run's), another run's lease, or no state at all (never switched on, or the company is gone). */
export type SyncAcquired = SyncState | 'busy' | 'none';

export interface SyncStateStore {
  get(companyId: string, type: SyncImport): Promise<SyncState | undefined>;
  /**
   * Switches the import on or off in the schedule's list (the company flag itself is the integration store's); the
   * position of a partial or failed run is dropped, as by `putMapping`: the next run starts from the beginning. Both
   * count a change of the settings (`settings_version`).
   */
  setEnabled(companyId: string, type: SyncImport, enabled: boolean, nowIso: string, connection?: SyncState['connection']): Promise<void>;
  putMapping(companyId: string, mapping: SqlMapping, nowIso: string): Promise<void>;
  /**
   * Takes the lease for `runId` until `untilIso` unless another lease lasts past `nowIso`. Never creates the state: an
   * import without one (never switched on, or its company purged) is `none`.
   */
  acquire(companyId: string, type: SyncImport, runId: string, nowIso: string, untilIso: string): Promise<SyncAcquired>;
  /**
   * Saves the run's progress while it holds the lease and the settings are still version `settingsVersion`; false
   * otherwise (the lease lost, or the settings changed). `release` ends the lease.
   */
  saveRun(
    companyId: string,
    type: SyncImport,
    runId: string,
    settingsVersion: number,
    patch: { run: SyncRunView | null; position: SyncPosition | null; last_error: SyncState['last_error'] },
    release: boolean,
    nowIso: string,
  ): Promise<boolean>;
  /**
   * Ends the lease of a run whose settings changed under it, whatever the settings now: writes `run` (when given) and
   * drops the position, so the next run starts from the beginning with the new settings. Nothing when the lease is
   * not the run's any more.
   */
  abandonRun(companyId: string, type: SyncImport, runId: string, run: SyncRunView | null, nowIso: string): Promise<void>;
  /** Switched-on imports of every company, for the schedule (one page; `cursor` continues). */
  listEnabled(cursor?: string): Promise<{ items: { company_id: string; type: SyncImport }[]; cursor: string | null }>;
}

/** A run of one import that stopped for now, to be continued at once (SQS sync queue; local mode's stand-in). */
export interface SyncContinueMessage {
  company_id: string;
  type: SyncImport;
}

/** Hands a run that stopped for now to the continuing job (lambdas/jobs/continue-master-data-sync.ts). */
export interface SyncContinuation {
  send(message: SyncContinueMessage): Promise<void>;
}

export type { SqlEngine };
