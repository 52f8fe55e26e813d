import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { localSecretBox } from '../../../lambdas/adapters/secrets/local-secret-box';
import { backoffSeconds, DEFAULT_RETRY, exportFileNames, exportFolder } from '../../../lambdas/core/integrations/export';
import { exportDoc } from './fixtures';

const dir = mkdtempSync(path.join(tmpdir(), 'secret-box-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('local SecretBox (AES-256-GCM with a key file)', () => {
  it('seals without the plain text, opens with the same context only, keeps the key file private', async () => {
    const box = localSecretBox(path.join(dir, 'k', 'integrations.key'));
    const ctx = { company_id: 'C1', integration: 'ftp_export' };
    const sealed = await box.seal('{"password":"hunter2-secret"}', ctx);
    expect(JSON.stringify(sealed)).not.toContain('hunter2');
    expect(sealed.alg).toBe('local-aes-256-gcm');
    await expect(box.open(sealed, ctx)).resolves.toBe('{"password":"hunter2-secret"}');
    await expect(box.open(sealed, { company_id: 'C2', integration: 'ftp_export' })).rejects.toThrow();
    await expect(box.open({ ...sealed, ciphertext: Buffer.from('tampered').toString('base64') }, ctx)).rejects.toThrow();
    const file = path.join(dir, 'k', 'integrations.key');
    expect(statSync(file).mode & 0o077).toBe(0);
    expect(Buffer.from(readFileSync(file, 'utf8'), 'base64')).toHaveLength(32);
    // Another instance on the same file opens it (the key survives restarts).
    await expect(localSecretBox(file).open(sealed, ctx)).resolves.toContain('hunter2');
  });
});

describe('export retries and file names', () => {
  it('backs off 30 s, 2 min, 8 min, then at most 15 min', () => {
    expect([1, 2, 3, 4, 5].map((a) => backoffSeconds(a, DEFAULT_RETRY))).toEqual([30, 120, 480, 900, 900]);
  });

  it('puts files in /<company code or unique name>/<issue month>/ with the document id in every name', () => {
    const doc = exportDoc({ fields: {} });
    expect(exportFolder({ code: '30 22/..', unique_name: 'acme-1' }, doc, '2025-03-04')).toBe('/30_22_../2025-03');
    expect(exportFolder({ code: '', unique_name: 'acme-1' }, doc, null)).toBe('/acme-1/2026-02');
    expect(exportFileNames({ receipt_id: 'R1', original_file_name: '../Sąskaita nr 1.pdf' })).toEqual({ original: 'R1_Saskaita_nr_1.pdf', xml: 'R1.xml', nsoft: 'R1.nsoft.csv' });
  });

  it('shortens a long original name in its base name and keeps the extension', () => {
    const long = `${'Saskaita faktura '.repeat(8)}nr 1.pdf`;
    const { original } = exportFileNames({ receipt_id: 'R1', original_file_name: long });
    expect(original).toMatch(/^R1_Saskaita_faktura_.*\.pdf$/);
    expect(original.length).toBe('R1_'.length + 80);
    expect(exportFileNames({ receipt_id: 'R1', original_file_name: '' }).original).toBe('R1_original');
  });

  it('takes the month folder of an undated document from its upload in Vilnius time, not UTC', () => {
    // 23:30 UTC on 31 January is 01:30 on 1 February in Vilnius.
    const doc = { ...exportDoc({ fields: {} }), created_at: '2026-01-31T23:30:00.000Z' };
    expect(exportFolder({ code: 'C1', unique_name: 'acme-1' }, doc, null)).toBe('/C1/2026-02');
    expect(exportFolder({ code: 'C1', unique_name: 'acme-1' }, doc, '2026-01-31')).toBe('/C1/2026-01');
  });
});
