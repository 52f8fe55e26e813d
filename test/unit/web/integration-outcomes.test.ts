/** What the Integration screen's Sync now and the edit screen's Send again tell the user. */
import { describe, expect, it } from 'vitest';
import { hasUnfinishedRun, lastErrorIsPast, sendAgainNotice, syncNowNotice } from '../../../web/src/features/integration/lib/outcomes';
import { MSG } from '../../../shared/schemas/messages';
import type { ImportStatusList, SyncRunView } from '../../../shared/schemas/master-data-sync';

describe('Sync now', () => {
  it('says a partial run continues in the background, not that it finished', () => {
    expect(syncNowNotice({ outcome: 'partial', error: null })).toEqual({ text: 'Sync stopped for now; it continues in the background', tone: 'info' });
    expect(syncNowNotice({ outcome: 'done', error: null })).toEqual({ text: 'Sync finished', tone: 'success' });
    expect(syncNowNotice({ outcome: 'failed', error: 'connection refused' })).toEqual({ text: 'Sync failed: connection refused', tone: 'error' });
  });

  it('tells a last error that a later run left behind from one that still holds', () => {
    const run = (outcome: SyncRunView['outcome'], started_at: string): SyncRunView => ({ trigger: 'manual', started_at, finished_at: null, outcome, counts: {}, rejected_examples: [], error: null });
    const error = { at: '2026-12-06T23:14:05.000Z', message: 'column "no_such_col" does not exist' };
    // a later run that did not fail: the error is behind it
    expect(lastErrorIsPast({ last_run: run('done', '2026-12-06T23:15:00.000Z'), last_error: error })).toBe(true);
    expect(lastErrorIsPast({ last_run: run('running', '2026-12-06T23:15:00.000Z'), last_error: error })).toBe(true);
    // the failed run continued from where it stopped (it keeps its start) and done after the error
    expect(lastErrorIsPast({ last_run: { ...run('done', '2026-12-06T23:14:00.000Z'), finished_at: '2026-12-06T23:16:00.000Z' }, last_error: error })).toBe(true);
    // the run that failed with it, an error after the run started, a later run that failed: it still holds
    expect(lastErrorIsPast({ last_run: { ...run('failed', '2026-12-06T23:14:00.000Z'), error: error.message }, last_error: error })).toBe(false);
    expect(lastErrorIsPast({ last_run: run('partial', '2026-12-06T23:14:00.000Z'), last_error: error })).toBe(false);
    expect(lastErrorIsPast({ last_run: run('failed', '2026-12-06T23:20:00.000Z'), last_error: error })).toBe(false);
    expect(lastErrorIsPast({ last_run: null, last_error: error })).toBe(false);
    expect(lastErrorIsPast({ last_run: run('done', '2026-12-06T23:15:00.000Z'), last_error: null })).toBe(false);
  });

  it('keeps reading the status while a run is running or stopped for now, until it ends', () => {
    const list = (outcome: SyncRunView['outcome'] | null, enabled = true): ImportStatusList => ({
      items: [
        { type: 'sql_import', enabled: false, last_run: null, last_error: null },
        {
          type: 'rivile_import',
          enabled,
          last_run: outcome && { trigger: 'manual', started_at: '2026-12-03T08:00:00.000Z', finished_at: null, outcome, counts: {}, rejected_examples: [], error: null },
          last_error: null,
        },
      ],
    });
    expect(hasUnfinishedRun(list('partial'))).toBe(true);
    expect(hasUnfinishedRun(list('running'))).toBe(true);
    expect(hasUnfinishedRun(list('done'))).toBe(false);
    expect(hasUnfinishedRun(list('failed'))).toBe(false);
    expect(hasUnfinishedRun(list(null))).toBe(false);
    // Switched off: the schedule does not continue it.
    expect(hasUnfinishedRun(list('partial', false))).toBe(false);
    expect(hasUnfinishedRun(undefined)).toBe(false);
  });
});

describe('Send again', () => {
  it("shows the document's refusal from the 200 answer instead of success", () => {
    const message = 'Company code matches customer/supplier code';
    expect(sendAgainNotice({ results: [{ ok: false, message }] })).toEqual({ text: message, tone: 'error' });
    expect(sendAgainNotice({ results: [{ ok: false }] })).toEqual({ text: MSG.somethingWrong, tone: 'error' });
    expect(sendAgainNotice({ results: [] })).toEqual({ text: MSG.somethingWrong, tone: 'error' });
    expect(sendAgainNotice({ results: [{ ok: true }] })).toEqual({ text: 'The document was sent again', tone: 'success' });
  });
});
