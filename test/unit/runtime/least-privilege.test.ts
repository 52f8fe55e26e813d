import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { deps } from '../../../lambdas/runtime/deps';
import { guardedFiles, guardedLive, requireNeed } from '../../../lambdas/runtime/lazy-adapters';
import { countingFailures, emfLine, METRIC_NAMES, METRICS_NAMESPACE } from '../../../lambdas/runtime/metrics';

describe('declared needs at run time', () => {
  afterEach(() => {
    delete process.env.NEEDS_AUDIT_FILE;
  });

  it('refuses documents-bucket writes to a handler that declares reading only, before loading S3', async () => {
    const files = guardedFiles({ needs: new Set(['table', 'documentsRead']), who: 'GET /receipts/{id}' });
    await expect(files.put('k', new Uint8Array(), 'text/plain')).rejects.toThrow(
      /GET \/receipts\/\{id\} calls files\.put \(read and write the documents bucket\) without declaring the need 'documentsBucket'/,
    );
    await expect(files.presignPut('k', 'text/plain', 60)).rejects.toThrow(/'documentsBucket'/);
    await expect(files.delete(['k'])).rejects.toThrow(/'documentsBucket'/);
  });

  it('refuses every bucket call and live event to a handler that declares the table only', async () => {
    const check = { needs: new Set(['table'] as const), who: 'GET /user' };
    await expect(guardedFiles(check).get('k')).rejects.toThrow(/GET \/user calls files\.get .*'documentsRead'/);
    await expect(guardedLive(check).publish('c', 'company', {})).rejects.toThrow(/GET \/user calls live\.publish .*'webSocketManage'/);
    // The bucket's name is configuration, not a call.
    process.env.TABLE_NAME ??= 'receipts';
    expect(typeof guardedFiles(check).bucket()).toBe('string');
  });

  it('lets handlers without a declaration (jobs) and declared needs through', () => {
    expect(() => requireNeed(undefined, ['documentsBucket'], 'files.put')).not.toThrow();
    expect(() => requireNeed({ needs: new Set(['documentsBucket']), who: 'x' }, ['documentsRead', 'documentsBucket'], 'files.get')).not.toThrow();
  });

  it('records instead of refusing while the declarations are audited (NEEDS_AUDIT_FILE)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'needs-audit-'));
    try {
      process.env.NEEDS_AUDIT_FILE = join(dir, 'audit.tsv');
      requireNeed({ needs: new Set(['table']), who: 'POST /item' }, ['webSocketManage'], 'live.publish');
      expect(readFileSync(process.env.NEEDS_AUDIT_FILE, 'utf8')).toBe('POST /item\twebSocketManage\n');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('builds deps whose adapters carry the declaration', async () => {
    process.env.TABLE_NAME ??= 'receipts';
    const d = deps(['table'], 'GET /companies');
    await expect(d.files.head('x')).rejects.toThrow(/GET \/companies calls files\.head/);
  });
});

describe('metrics (Embedded Metric Format)', () => {
  it('writes a dimensionless metric of the Receipts namespace with searchable context', () => {
    expect(emfLine(METRIC_NAMES.textractFailures, 1, 'Count', { errorName: 'ThrottlingException' }, 1700000000000)).toEqual({
      _aws: {
        Timestamp: 1700000000000,
        CloudWatchMetrics: [{ Namespace: METRICS_NAMESPACE, Dimensions: [[]], Metrics: [{ Name: 'TextractFailures', Unit: 'Count' }] }],
      },
      errorName: 'ThrottlingException',
      TextractFailures: 1,
    });
  });

  it('counts a failed analysis once and rethrows; a success writes nothing', async () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    try {
      const failing = countingFailures(
        { analyzeExpense: () => Promise.reject(Object.assign(new Error('rate'), { name: 'ProvisionedThroughputExceededException' })) },
        METRIC_NAMES.textractFailures,
      );
      await expect(failing.analyzeExpense({ bytes: new Uint8Array(), mime: 'image/jpeg' })).rejects.toThrow('rate');
      expect(log).toHaveBeenCalledTimes(1);
      const line = JSON.parse(String(log.mock.calls[0]![0])) as Record<string, unknown>;
      expect(line).toMatchObject({ TextractFailures: 1, errorName: 'ProvisionedThroughputExceededException' });

      log.mockClear();
      const result = { pages: [] } as unknown as Awaited<ReturnType<typeof failing.analyzeExpense>>;
      const ok = countingFailures({ analyzeExpense: async () => result }, METRIC_NAMES.textractFailures);
      await expect(ok.analyzeExpense({ bytes: new Uint8Array(), mime: 'image/jpeg' })).resolves.toBe(result);
      expect(log).not.toHaveBeenCalled();
    } finally {
      log.mockRestore();
    }
  });
});
