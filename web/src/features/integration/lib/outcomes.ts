import type { ImportStatusList, ImportStatusView, SyncRunView } from '../../../../../shared/schemas/master-data-sync';
import { MSG } from '../../../../../shared/schemas/messages';
import type { InfoTone } from '../../../components/ui/InfoPopup';

export interface Notice {
  text: string;
  tone: InfoTone;
}

/**
 * What "Sync now" tells about its run. A run that reached the call's time budget stopped (`partial`: between pages,
 * or giving up a page the source was slow to answer): the schedule continues it, so it is not finished yet.
 */
export function syncNowNotice(run: Pick<SyncRunView, 'outcome' | 'error'>): Notice {
  if (run.outcome === 'failed') return { text: `Sync failed: ${run.error ?? ''}`, tone: 'error' };
  if (run.outcome === 'done') return { text: 'Sync finished', tone: 'success' };
  return { text: 'Sync stopped for now; it continues in the background', tone: 'info' };
}

/**
 * Whether an import's last run is still going: running, or stopped for now with the schedule continuing it (the
 * Integration screen reads the status again until it ends).
 */
export function hasUnfinishedRun(list: ImportStatusList | undefined): boolean {
  return Boolean(list?.items.some((i) => i.enabled && (i.last_run?.outcome === 'running' || i.last_run?.outcome === 'partial')));
}

/**
 * Whether an import's last error is behind it: a later run started after it and did not fail, or the run that met it
 * (a failed run continued from where it stopped keeps its start) went on to the end, done (the error is kept for the
 * user to see, but it no longer says the import is broken).
 */
export function lastErrorIsPast(status: Pick<ImportStatusView, 'last_run' | 'last_error'>): boolean {
  const { last_run: run, last_error: error } = status;
  if (!run || !error || run.outcome === 'failed') return false;
  if (run.outcome === 'done' && run.finished_at && Date.parse(run.finished_at) > Date.parse(error.at)) return true;
  return Date.parse(run.started_at) > Date.parse(error.at);
}

/** POST /receipts/bulk's answer to a send: one line per document. */
export interface BulkSendAnswer {
  results?: { ok: boolean; message?: string; receipt?: unknown }[];
}

/**
 * What Send again tells: the bulk send answers 200 with a result per document, a refused one (not valid, the
 * company's own code as its supplier's, confirmed but not queued) with ok false and why — read as the list's Send
 * reads it.
 */
export function sendAgainNotice(answer: BulkSendAnswer | null | undefined): Notice {
  const result = answer?.results?.[0];
  if (result?.ok) return { text: 'The document was sent again', tone: 'success' };
  return { text: result?.message || MSG.somethingWrong, tone: 'error' };
}
