/**
 * Runs of the master-data imports with in-memory fakes (state store, master data, a Rivile source, a clock that
 * moves only when the source is read): where a run continues, and how the schedule shares its budget.
 */
import { describe, expect, it } from 'vitest';
import { continueSync, parseContinueMessage, runSchedule, runSync, syncNow, type SyncDeps } from '../../../lambdas/core/master-data/sync/service';
import type { SyncContinueMessage } from '../../../lambdas/core/master-data/sync/ports';
import type { SyncState, SyncStateStore } from '../../../lambdas/core/master-data/sync/ports';
import type { SyncImport } from '../../../shared/schemas/master-data-sync';
import { FakeMasterDataStore } from '../../support/fake-master-data-store';

/** One page of Rivile clients: 100 a page, as GET_N08_LIST answers. */
const PAGE = 100;
/** What reading one source page costs on the fake clock. */
const PAGE_MS = 1_000;

class FakeSyncStates implements SyncStateStore {
  states = new Map<string, SyncState>();
  private key = (c: string, t: SyncImport) => `${t}#${c}`;
  async get(c: string, t: SyncImport) {
    const s = this.states.get(this.key(c, t));
    return s ? structuredClone(s) : undefined;
  }
  put(s: SyncState) {
    this.states.set(this.key(s.company_id, s.type), structuredClone(s));
  }
  /** A change of the settings, as the Integration screen's switch or mapping makes it. */
  async setEnabled(c: string, t: SyncImport, enabled: boolean) {
    const s = this.states.get(this.key(c, t))!;
    Object.assign(s, { enabled, position: null, settings_version: s.settings_version + 1 });
  }
  async putMapping() {}
  async acquire(c: string, t: SyncImport, runId: string, nowIso: string, untilIso: string) {
    const s = this.states.get(this.key(c, t));
    if (!s) return 'none' as const;
    if (s.lease_until && s.lease_until >= nowIso) return 'busy' as const;
    s.lease_run_id = runId;
    s.lease_until = untilIso;
    return structuredClone(s);
  }
  async saveRun(c: string, t: SyncImport, runId: string, version: number, patch: Pick<SyncState, 'run' | 'position' | 'last_error'>, release: boolean, nowIso: string) {
    const s = this.states.get(this.key(c, t));
    if (!s || s.lease_run_id !== runId || s.settings_version !== version) return false;
    Object.assign(s, structuredClone(patch), { updated_at: nowIso });
    if (release) Object.assign(s, { lease_run_id: null, lease_until: null });
    return true;
  }
  async abandonRun(c: string, t: SyncImport, runId: string, run: SyncState['run'], nowIso: string) {
    const s = this.states.get(this.key(c, t));
    if (!s || s.lease_run_id !== runId) return;
    Object.assign(s, { lease_run_id: null, lease_until: null, updated_at: nowIso }, run ? { run: structuredClone(run), position: null } : {});
  }
  async listEnabled() {
    const items = [...this.states.values()].filter((s) => s.enabled).map((s) => ({ company_id: s.company_id, type: s.type }));
    return { items, cursor: null };
  }
}

/** Companies whose Rivile import holds `clients` rows each (the API key is the company id). */
function setup(clients: Record<string, number>) {
  let t = Date.parse('2026-12-02T10:00:00Z');
  const calls: { company: string; page: number }[] = [];
  const syncState = new FakeSyncStates();
  for (const company of Object.keys(clients)) {
    syncState.put({
      company_id: company, type: 'rivile_import', enabled: true, mapping: null, run: null, position: null, last_error: null,
      connection: null, lease_run_id: null, lease_until: null, settings_version: 0, updated_at: '2026-12-01T00:00:00.000Z',
    });
  }
  let n = 0;
  const deps = {
    masterData: new FakeMasterDataStore(),
    clock: { now: () => new Date(t) },
    ids: { newId: () => `id${++n}` },
    syncState,
    integrations: { getCredentials: async (company: string) => ({ company_id: company, sealed: company }) },
    secrets: { open: async (sealed: string) => JSON.stringify({ kind: 'api_key', api_key: sealed }) },
    sql: { open: async () => { throw new Error('no SQL here'); } },
    rivile: {
      async call(apiKey: string, method: string, params: Record<string, unknown>) {
        const page = Number(params.pagenumber);
        calls.push({ company: apiKey, page });
        t += PAGE_MS;
        if (method !== 'GET_N08_LIST') return { N17: [] };
        const total = clients[apiKey] ?? 0;
        const rows = [];
        for (let i = (page - 1) * PAGE + 1; i <= Math.min(total, page * PAGE); i++) rows.push({ N08_KODAS_KS: `K${String(i).padStart(6, '0')}`, N08_PAV: `Client ${i} UAB`, N08_RUSIS: '1' });
        return { N08: rows };
      },
    },
  } as unknown as SyncDeps;
  return { deps, syncState, calls, advance: (ms: number) => (t += ms), now: () => t };
}

/** The deps of sync now and the continuing job: the hand-overs and warnings are kept. */
function continuing(clients: Record<string, number>, send?: () => Promise<void>) {
  const base = setup(clients);
  const sent: SyncContinueMessage[] = [];
  const warnings: string[] = [];
  const deps = {
    ...base.deps,
    continuation: { send: send ?? (async (m: SyncContinueMessage) => void sent.push(m)) },
    log: { warn: (msg: string) => void warnings.push(msg) },
  };
  return { ...base, deps, sent, warnings };
}

describe('master-data import runs', () => {
  it('continues a run that died half-way (left running, lease expired) from its saved position', async () => {
    const { deps, syncState, calls, now } = setup({ A: 1000 });
    const started = new Date(now() - 10 * 60_000).toISOString();
    const state = (await syncState.get('A', 'rivile_import'))!;
    syncState.put({
      ...state,
      run: { trigger: 'schedule', started_at: started, finished_at: null, outcome: 'running', counts: { suppliers: { created: 500, updated: 0, unchanged: 0, rejected: 0 } }, rejected_examples: [], error: null },
      position: { step: 0, after: 5 },
      lease_run_id: 'dead-run',
      lease_until: new Date(now() - 60_000).toISOString(),
    });
    const result = await runSync(deps, 'A', 'rivile_import', 'schedule', 60_000);
    expect(result.status).toBe('ran');
    const run = (result as { run: { outcome: string; started_at: string; counts: Record<string, { created: number }> } }).run;
    expect(calls[0]).toEqual({ company: 'A', page: 6 });
    expect(run.outcome).toBe('done');
    expect(run.started_at).toBe(started);
    expect(run.counts.suppliers!.created).toBe(1000);
  });

  it('still refuses to take over a run whose lease lasts', async () => {
    const { deps, syncState, calls, now } = setup({ A: 1000 });
    const state = (await syncState.get('A', 'rivile_import'))!;
    syncState.put({ ...state, lease_run_id: 'live-run', lease_until: new Date(now() + 60_000).toISOString() });
    expect(await runSync(deps, 'A', 'rivile_import', 'manual', 20_000)).toEqual({ status: 'busy' });
    expect(calls).toEqual([]);
  });

  it('gives up a page the source has not answered by the run\'s limit: partial before that page, its call aborted', async () => {
    const { deps, syncState, advance } = setup({ A: 1000 });
    const rivile = deps.rivile;
    let aborted = false;
    let hung = false;
    deps.rivile = {
      async call(apiKey, method, params, data, options) {
        const answer = await rivile.call(apiKey, method, params, data);
        // Page 1 leaves 150 ms of a 5 s budget; page 2 starts inside it and never answers until it is given up.
        if (params.pagenumber === 1) advance(5_000 - PAGE_MS - 150);
        if (params.pagenumber !== 2 || hung) return answer;
        hung = true;
        return new Promise((_resolve, reject) =>
          options?.signal?.addEventListener('abort', () => {
            aborted = true;
            reject(new Error('aborted'));
          }),
        );
      },
    };
    const before = Date.now();
    const result = await runSync(deps, 'A', 'rivile_import', 'manual', 5_000);
    expect(Date.now() - before).toBeLessThan(2_000);
    expect(result).toMatchObject({ status: 'ran', run: { outcome: 'partial', error: null, counts: { suppliers: { created: PAGE, updated: 0, unchanged: 0, rejected: 0 } } } });
    expect(aborted).toBe(true);
    const state = (await syncState.get('A', 'rivile_import'))!;
    expect(state).toMatchObject({ position: { step: 0, after: 1 }, lease_run_id: null, run: { outcome: 'partial' } });
    // The next run reads page 2 again and finishes, with every row counted once.
    const next = await runSync(deps, 'A', 'rivile_import', 'schedule', 60_000);
    expect(next).toMatchObject({ status: 'ran', run: { outcome: 'done', counts: { suppliers: { created: 1000, updated: 0, unchanged: 0, rejected: 0 } } } });
  });

  it('shares one invocation among the due imports: a small import runs while a large one listed first is still partial', async () => {
    // A has 12,000 rows (120 pages of one second each), B ten rows; the invocation may spend 25 seconds.
    const { deps, syncState, calls, sent } = continuing({ A: 12_000, B: 10 });
    const result = await runSchedule(deps, 25_000);
    const a = (await syncState.get('A', 'rivile_import'))!.run!;
    const b = (await syncState.get('B', 'rivile_import'))!.run;
    expect(b).toMatchObject({ outcome: 'done', counts: { suppliers: { created: 10 } } });
    expect(a.outcome).toBe('partial');
    expect(a.counts.suppliers!.created).toBeGreaterThan(0);
    expect(result.ran).toBe(2);
    // A used what B left: more than one slice of the budget.
    expect(calls.filter((c) => c.company === 'A').length).toBeGreaterThan(12);
    // Still partial at the invocation's end: handed to the continuing job at once, not left for the next invocation.
    expect(sent).toEqual([{ company_id: 'A', type: 'rivile_import' }]);
  });

  it('does not start again from page 1 an import finished between its rounds (by the continuing job)', async () => {
    const { deps, syncState, calls } = continuing({ A: 12_000, B: 10 });
    const save = syncState.saveRun.bind(syncState);
    // When B's run is released (round 1), A's partial run is finished elsewhere: the continuing job's turn.
    syncState.saveRun = async (c, t, runId, version, patch, release, nowIso) => {
      const kept = await save(c, t, runId, version, patch, release, nowIso);
      if (c === 'B' && release) {
        const a = (await syncState.get('A', 'rivile_import'))!;
        syncState.put({ ...a, run: { ...a.run!, outcome: 'done', finished_at: nowIso }, position: null });
      }
      return kept;
    };
    await runSchedule(deps, 25_000);
    const firstPages = calls.filter((c) => c.company === 'A' && c.page === 1);
    expect(firstPages).toHaveLength(1);
    expect((await syncState.get('A', 'rivile_import'))!).toMatchObject({ lease_run_id: null, run: { outcome: 'done' } });
  });

  it('ends a run overtaken by a change of the settings without a position, and gives the lease back', async () => {
    const { deps, syncState, calls } = setup({ A: 1000 });
    const rivile = deps.rivile;
    deps.rivile = {
      async call(apiKey, method, params, data, options) {
        const answer = await rivile.call(apiKey, method, params, data, options);
        // While page 3 is read, the admin switches the import off and on again (a new API key, say).
        if (params.pagenumber === 3) {
          await syncState.setEnabled('A', 'rivile_import', false);
          await syncState.setEnabled('A', 'rivile_import', true);
        }
        return answer;
      },
    };
    const result = await runSync(deps, 'A', 'rivile_import', 'manual', 60_000);
    // Pages 1 and 2 were saved; page 3 was read with the old settings: its position is not kept.
    expect(result).toMatchObject({ status: 'ran', pages: 3, run: { outcome: 'partial', counts: { suppliers: { created: 300 } } } });
    expect(calls.map((c) => c.page)).toEqual([1, 2, 3]);
    const state = (await syncState.get('A', 'rivile_import'))!;
    expect(state).toMatchObject({ position: null, lease_run_id: null, lease_until: null, run: { outcome: 'partial' }, settings_version: 2 });
    // The next run starts over from page 1 (unchanged rows write nothing) and is not refused as busy.
    calls.length = 0;
    deps.rivile = rivile;
    const next = await runSync(deps, 'A', 'rivile_import', 'manual', 60_000);
    expect(calls[0]!.page).toBe(1);
    expect(next).toMatchObject({ status: 'ran', run: { outcome: 'done', counts: { suppliers: { created: 700, unchanged: 300 } } } });
  });

  it('gives the lease back when the settings change just before the run ends', async () => {
    const { deps, syncState } = setup({ A: 150 });
    const rivile = deps.rivile;
    deps.rivile = {
      async call(apiKey, method, params, data, options) {
        const answer = await rivile.call(apiKey, method, params, data, options);
        // The last call of the run (the next kind's first page): the settings change before the run's end is saved.
        if (method !== 'GET_N08_LIST') await syncState.setEnabled('A', 'rivile_import', true);
        return answer;
      },
    };
    const result = await runSync(deps, 'A', 'rivile_import', 'manual', 60_000);
    expect(result).toMatchObject({ status: 'ran', run: { outcome: 'partial' } });
    expect((await syncState.get('A', 'rivile_import'))!).toMatchObject({ position: null, lease_run_id: null });
  });

  it('answers off, and writes nothing, for an import without state (never switched on, or its company purged)', async () => {
    const { deps, syncState, calls } = setup({});
    expect(await runSync(deps, 'gone', 'rivile_import', 'schedule', 60_000, 60_000, { onlyContinue: true })).toEqual({ status: 'off' });
    expect(await syncState.get('gone', 'rivile_import')).toBeUndefined();
    expect(calls).toEqual([]);
  });

  it('hands on at its end only the imports whose last turn advanced', async () => {
    const { deps, sent, advance } = continuing({ A: 12_000, B: 12_000 });
    const rivile = deps.rivile;
    deps.rivile = {
      async call(apiKey, method, params, data, options) {
        if (apiKey === 'A') return rivile.call(apiKey, method, params, data, options);
        // B's source answers nothing in time: each of its turns gives up its first page.
        advance(10);
        return new Promise((_resolve, reject) => options?.signal?.addEventListener('abort', () => reject(new Error('aborted'))));
      },
    } as typeof deps.rivile;
    await runSchedule(deps, 25_000);
    expect(sent).toEqual([{ company_id: 'A', type: 'rivile_import' }]);
  });

  it('starts the next invocation with the import served longest ago', async () => {
    const { deps, syncState, calls, advance } = continuing({ A: 12_000, B: 12_000, C: 12_000 });
    await runSchedule(deps, 12_000);
    const first = new Set(calls.map((c) => c.company));
    advance(60_000);
    calls.length = 0;
    await runSchedule(deps, 12_000);
    // Three large imports, a budget that serves about two a time: the one left out goes first next time.
    const left = ['A', 'B', 'C'].filter((c) => !first.has(c));
    expect(left.length).toBeGreaterThan(0);
    expect(calls[0]!.company).toBe(left[0]);
    for (const c of ['A', 'B', 'C']) expect((await syncState.get(c, 'rivile_import'))!.run).not.toBeNull();
  });
});

describe('a run that stopped for now is continued at once (the sync queue)', () => {
  it('hands a partial sync now to the queue, and the job continues it, handing on while it advances, until done', async () => {
    const { deps, sent, calls } = continuing({ A: 1000 });
    const run = await syncNow(deps, 'A', 'rivile_import', 3_000);
    expect(run).toMatchObject({ trigger: 'manual', outcome: 'partial' });
    expect(sent).toEqual([{ company_id: 'A', type: 'rivile_import' }]);

    const turn = await continueSync(deps, sent[0]!, 3_000);
    expect(turn).toMatchObject({ status: 'ran', run: { trigger: 'manual', outcome: 'partial', started_at: run.started_at } });
    expect((turn as { pages: number }).pages).toBeGreaterThan(0);
    expect(sent).toHaveLength(2);

    const last = await continueSync(deps, sent[1]!, 60_000);
    expect(last).toMatchObject({ status: 'ran', run: { outcome: 'done', counts: { suppliers: { created: 1000 } } } });
    expect(sent).toHaveLength(2);
    // Each turn read on from where the last one stopped (page 11 is the empty end; a page given up at a turn's limit is read again, and its
    // rows are counted once: 1000 created above).
    const clientPages = calls.filter((c, i) => i < calls.length - 1).map((c) => c.page);
    expect(new Set(clientPages)).toEqual(new Set([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]));
    expect(clientPages).toEqual([...clientPages].sort((a, b) => a - b));
  });

  it('does nothing for an import finished meanwhile, and frees it for the next run', async () => {
    const { deps, sent, calls, syncState } = continuing({ A: 50 });
    expect(await syncNow(deps, 'A', 'rivile_import', 60_000)).toMatchObject({ outcome: 'done' });
    expect(sent).toEqual([]);
    const before = calls.length;
    expect(await continueSync(deps, { company_id: 'A', type: 'rivile_import' }, 60_000)).toEqual({ status: 'nothing' });
    expect(calls).toHaveLength(before);
    expect(await syncState.get('A', 'rivile_import')).toMatchObject({ lease_run_id: null, run: { outcome: 'done' } });
  });

  it('leaves a turn that finished no page to the schedule instead of asking the source again at once', async () => {
    const { deps, sent, advance } = continuing({ A: 1000 });
    await syncNow(deps, 'A', 'rivile_import', 1_500);
    expect(sent).toHaveLength(1);
    deps.rivile = {
      async call(_apiKey, _method, _params, _data, options) {
        advance(10);
        // The source no longer answers: every page is given up at the run's limit.
        return new Promise((_resolve, reject) => options?.signal?.addEventListener('abort', () => reject(new Error('aborted'))));
      },
    } as typeof deps.rivile;
    const turn = await continueSync(deps, sent[0]!, 200);
    expect(turn).toMatchObject({ status: 'ran', pages: 0, run: { outcome: 'partial' } });
    expect(sent).toHaveLength(1);
  });

  it('skips an import another run holds, and answers sync now even when the queue refuses the hand-over', async () => {
    const { deps, sent, syncState, now } = continuing({ A: 1000 });
    const state = (await syncState.get('A', 'rivile_import'))!;
    syncState.put({ ...state, lease_run_id: 'live-run', lease_until: new Date(now() + 60_000).toISOString() });
    expect(await continueSync(deps, { company_id: 'A', type: 'rivile_import' }, 60_000)).toEqual({ status: 'busy' });
    expect(sent).toEqual([]);

    const refused = continuing({ B: 1000 }, async () => {
      throw new Error('queue unavailable');
    });
    expect(await syncNow(refused.deps, 'B', 'rivile_import', 2_000)).toMatchObject({ outcome: 'partial' });
    expect(refused.warnings).toEqual(['master-data sync: the rest was not handed to the sync queue; the schedule continues it']);
  });

  it('reads a queue message or drops what is not one', () => {
    expect(parseContinueMessage('{"company_id":"A","type":"sql_import"}')).toEqual({ company_id: 'A', type: 'sql_import' });
    expect(parseContinueMessage('{"company_id":"A","type":"ftp_export"}')).toBeNull();
    expect(parseContinueMessage('not json')).toBeNull();
  });
});
