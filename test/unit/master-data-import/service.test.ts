import { describe, expect, it } from 'vitest';
import { XLSX_MAX_BYTES } from '../../../shared/constants';
import {
  getImportResult,
  IMPORT_CHUNK_ROWS,
  IMPORT_MSG,
  IMPORT_ROW_CONCURRENCY,
  requestImportUpload,
  runImport,
  type ImportJobDeps,
} from '../../../lambdas/core/master-data/import/service';
import { WORKBOOK_MSG } from '../../../lambdas/core/master-data/import/workbook';
import type { ImportType } from '../../../shared/schemas/master-data';
import { FakeMasterDataStore } from '../../support/fake-master-data-store';
import { FakeFileStore, FakeImportsStore } from '../../support/fake-imports-store';
import { workbookBytes, XLS_TYPE, XLSX_TYPE } from '../../support/workbooks';

const COMPANY = 'company-a';

/** The fake store with a hook before each write, to make a delivery fail half-way. */
class FailingStore extends FakeMasterDataStore {
  beforeWrite?: () => void;
  override async putStakeholder(...args: Parameters<FakeMasterDataStore['putStakeholder']>) {
    this.beforeWrite?.();
    return super.putStakeholder(...args);
  }
}

function setup() {
  let n = 0;
  const changed: string[] = [];
  const deps: ImportJobDeps & { masterData: FailingStore; imports: FakeImportsStore; files: FakeFileStore } = {
    imports: new FakeImportsStore(),
    files: new FakeFileStore(),
    masterData: new FailingStore(),
    clock: { now: () => new Date('2026-11-25T10:00:00Z') },
    ids: { newId: () => `ID${String(++n).padStart(6, '0')}` },
    onChanged: async (companyId, type) => void changed.push(`${companyId}:${type}`),
  };
  /** GET /upload/import, then the PUT of the bytes. */
  const upload = async (type: ImportType, bytes: Uint8Array, contentType = XLSX_TYPE, companyId = COMPANY) => {
    const res = await requestImportUpload(deps, { userId: 'user-1', companyId }, { upload_type: type, content_type: contentType, size: Math.max(1, Math.min(bytes.length, XLSX_MAX_BYTES)), original_file_name: 'list.xlsx' });
    const key = deps.files.signed.at(-1)!.key;
    await deps.files.put(key, bytes, contentType);
    return { importId: res.import_id, key };
  };
  const result = (importId: string, companyId = COMPANY) => getImportResult(deps, { companyId }, importId);
  return { deps, upload, result, changed };
}

describe('XLSX/XLS import of master data', () => {
  it('records a pending import and signs a PUT under imports/ for the caller’s company', async () => {
    const { deps, result } = setup();
    const res = await requestImportUpload(deps, { userId: 'user-1', companyId: COMPANY }, { upload_type: 'items', content_type: XLS_TYPE, size: 2048 });
    expect(res).toEqual({
      uploadURL: `https://upload.test/imports/${res.import_id}`,
      import_id: res.import_id,
      headers: { 'content-type': XLS_TYPE, 'if-none-match': '*' },
    });
    expect(await result(res.import_id)).toMatchObject({ status: 'pending', upload_type: 'items', created: 0, rejected: [], finished_at: null });
    await expect(requestImportUpload(deps, { userId: 'user-1' }, { upload_type: 'items', content_type: XLS_TYPE, size: 2048 })).rejects.toMatchObject({ kind: 'Forbidden' });
  });

  it('binds the declared size and a write-once condition into the upload URL, and refuses an empty or over-10-MB size up front', async () => {
    const { deps } = setup();
    await requestImportUpload(deps, { userId: 'user-1', companyId: COMPANY }, { upload_type: 'suppliers', content_type: XLSX_TYPE, size: 4096 });
    expect(deps.files.signed.at(-1)).toMatchObject({ contentType: XLSX_TYPE, bind: { contentLength: 4096, writeOnce: true } });
    await requestImportUpload(deps, { userId: 'user-1', companyId: COMPANY }, { upload_type: 'items', content_type: XLSX_TYPE, size: XLSX_MAX_BYTES });
    expect(deps.files.signed.at(-1)!.bind).toEqual({ contentLength: XLSX_MAX_BYTES, writeOnce: true });
    const signedBefore = deps.files.signed.length;
    const recordsBefore = deps.imports.records.size;
    for (const size of [XLSX_MAX_BYTES + 1, 5 * 1024 ** 3, 0, -1, 1.5]) {
      await expect(requestImportUpload(deps, { userId: 'user-1', companyId: COMPANY }, { upload_type: 'items', content_type: XLSX_TYPE, size })).rejects.toMatchObject({
        kind: 'ValidationFailed',
      });
    }
    await expect(requestImportUpload(deps, { userId: 'user-1', companyId: COMPANY }, { upload_type: 'items', content_type: XLSX_TYPE, size: XLSX_MAX_BYTES + 1 })).rejects.toMatchObject({
      message: IMPORT_MSG.tooLarge,
    });
    // Nothing recorded, nothing signed for a refused size.
    expect(deps.files.signed.length).toBe(signedBefore);
    expect(deps.imports.records.size).toBe(recordsBefore);
  });

  it('deletes an object that arrives for an import already done or failed (a second PUT), without running it again', async () => {
    const { deps, upload, result } = setup();
    const done = await upload('categories', workbookBytes([['Kategorija'], ['Kuras']]));
    await runImport(deps, done.key);
    expect(await result(done.importId)).toMatchObject({ status: 'done', created: 1 });
    expect(deps.files.objects.has(done.key)).toBe(false);
    // The URL is used again: the object is there once more and its notification runs the job.
    await deps.files.put(done.key, workbookBytes([['Kategorija'], ['Maistas'], ['Degalai']]), XLSX_TYPE);
    await runImport(deps, done.key);
    expect(deps.files.objects.has(done.key)).toBe(false);
    expect(await result(done.importId)).toMatchObject({ status: 'done', created: 1, total_rows: 1 });
    expect(deps.masterData.categories.size).toBe(1);

    const failed = await upload('items', new TextEncoder().encode('not a workbook'));
    await runImport(deps, failed.key);
    expect(await result(failed.importId)).toMatchObject({ status: 'failed', message: WORKBOOK_MSG.notWorkbook });
    await deps.files.put(failed.key, workbookBytes([['Name'], ['Milk']]), XLSX_TYPE);
    await runImport(deps, failed.key);
    expect(deps.files.objects.has(failed.key)).toBe(false);
    expect(await result(failed.importId)).toMatchObject({ status: 'failed', message: WORKBOOK_MSG.notWorkbook });
    expect(deps.masterData.items.size).toBe(0);
  });

  it('answers another company’s import as not found', async () => {
    const { deps, upload, result } = setup();
    const { importId } = await upload('items', workbookBytes([['Name'], ['Milk']]));
    await expect(result(importId, 'company-b')).rejects.toMatchObject({ kind: 'NotFound' });
    await expect(getImportResult(deps, {}, importId)).rejects.toMatchObject({ kind: 'NotFound' });
    await expect(result('nope')).rejects.toMatchObject({ kind: 'NotFound' });
  });

  it('imports suppliers with Lithuanian headers from an .xlsx: created, rejected rows with reasons, a code given twice kept from its first row', async () => {
    const { deps, upload, result, changed } = setup();
    await deps.masterData.putCategory({
      id: 'cat-1', name: 'Kuras', category_code: 'K1', company_id: COMPANY, external: false, created_at: '', updated_at: '', version: 1,
    });
    const rows = [
      ['Tiekėjų sąrašas'],
      [],
      ['Pavadinimas', 'Įmonės kodas', 'PVM mokėtojo kodas', 'Adresas', 'Miestas', 'Šalis', 'Kategorija', 'Datos formatas'],
      ['Alfa UAB', '300100', 'LT100', 'Gedimino 1', 'Vilnius', 'Lietuva', 'K1', 'YYYY-MM-DD'],
      ['Beta UAB', '300200', '', '', '', 'LV', 'Kuras', ''],
      ['Gama', '', '', '', '', '', '', ''],
      ['Delta', '300400', '', '', '', 'Atlantis', '', ''],
      ['Alfa uab', '300500', '', '', '', '', '', ''],
      ['Epsilon', '300600', '', '', '', '', 'Nėra', ''],
      ['Alfa UAB', '300100', '', '', 'Kaunas', '', '', ''],
    ];
    const { importId, key } = await upload('suppliers', workbookBytes(rows));
    await runImport(deps, key);
    const res = await result(importId);
    expect(res).toMatchObject({ status: 'done', message: null, total_rows: 7, created: 2, updated: 0 });
    expect(res.finished_at).toBe('2026-11-25T10:00:00.000Z');
    expect(res.rejected).toEqual([
      { row: 6, reason: 'Code: Required field' },
      { row: 7, reason: 'Country: unknown country "Atlantis"' },
      { row: 8, reason: 'Name: This supplier already exists' },
      { row: 9, reason: 'Category: no category "Nėra" in this company' },
      { row: 10, reason: 'Code: same code as sheet row 4; codes are compared without spaces, dashes and case' },
    ]);
    const alfa = await deps.masterData.findStakeholder(COMPANY, 'supplier', 'code', '300100');
    expect(alfa).toMatchObject({ name: 'Alfa UAB', vat_id: 'LT100', street: 'Gedimino 1', city: 'Vilnius', country: 'LT', category_id: 'cat-1', selected_date_format: 'YYYY-MM-DD', version: 1 });
    expect(await deps.masterData.findStakeholder(COMPANY, 'supplier', 'code', '300200')).toMatchObject({ country: 'LV', category_id: 'cat-1' });
    expect(await deps.masterData.findStakeholder(COMPANY, 'customer', 'code', '300100')).toBeUndefined();
    expect(deps.files.objects.has(key)).toBe(false);
    expect(changed).toEqual([`${COMPANY}:suppliers`]);
  });

  it('imports items from a legacy .xls with Words and Word N columns, updating by name', async () => {
    const { deps, upload, result } = setup();
    const first = await upload('items', workbookBytes([['Prekė', 'Žodžiai', 'Word 1'], ['Pienas', 'milk; pieno', 'dairy'], ['Duona', '', '']], 'xls'), XLS_TYPE);
    await runImport(deps, first.key);
    expect(await result(first.importId)).toMatchObject({ status: 'done', created: 2, updated: 0, rejected: [] });
    expect(await deps.masterData.getItem(COMPANY, 'pienas')).toMatchObject({ name: 'Pienas', words: ['milk', 'pieno', 'dairy'] });
    const second = await upload('items', workbookBytes([['Name', 'Words'], ['PIENAS', 'milk'], ['Duona', '']], 'xls'), XLS_TYPE);
    await runImport(deps, second.key);
    // Duona's row (no words: it keeps them) changes nothing.
    expect(await result(second.importId)).toMatchObject({ status: 'done', created: 0, updated: 1, unchanged: 1 });
    expect(await deps.masterData.getItem(COMPANY, 'pienas')).toMatchObject({ name: 'PIENAS', words: ['milk'] });
    expect(deps.masterData.items.size).toBe(2);
  });

  it('a file imported again reports its rows unchanged, not updated, and announces no change', async () => {
    const { deps, upload, result, changed } = setup();
    const rows = [['Name', 'Code', 'City'], ['Alfa UAB', '300100', 'Vilnius'], ['Beta UAB', '300200', 'Kaunas'], ['Gama UAB', '300300', '']];
    const first = await upload('suppliers', workbookBytes(rows));
    await runImport(deps, first.key);
    expect(await result(first.importId)).toMatchObject({ status: 'done', created: 3, updated: 0, unchanged: 0 });
    const second = await upload('suppliers', workbookBytes(rows));
    await runImport(deps, second.key);
    expect(await result(second.importId)).toMatchObject({ status: 'done', total_rows: 3, created: 0, updated: 0, unchanged: 3, rejected: [] });
    expect((await deps.masterData.findStakeholder(COMPANY, 'supplier', 'code', '300100'))?.version).toBe(1);
    const third = await upload('suppliers', workbookBytes([...rows.slice(0, 3), ['Gama UAB', '300300', 'Klaipėda']]));
    await runImport(deps, third.key);
    expect(await result(third.importId)).toMatchObject({ created: 0, updated: 1, unchanged: 2 });
    // The first and the third changed the register; the second did not.
    expect(changed).toEqual([`${COMPANY}:suppliers`, `${COMPANY}:suppliers`]);
  });

  it('imports categories by code, or by name when the row has none; found by name, a category keeps its name as stored', async () => {
    const { deps, upload, result } = setup();
    const first = await upload('categories', workbookBytes([['Kategorija', 'Kodas'], ['Kuras', 'K1'], ['Maistas', '']]));
    await runImport(deps, first.key);
    expect(await result(first.importId)).toMatchObject({ status: 'done', created: 2, updated: 0, rejected: [] });
    // by code: renamed; by name ("maistas" for "Maistas"): found, its name not rewritten, a code given is added
    const second = await upload('categories', workbookBytes([['Kategorija', 'Kodas'], ['Degalai', 'k-1'], ['maistas', '']]));
    await runImport(deps, second.key);
    expect(await result(second.importId)).toMatchObject({ status: 'done', created: 0, updated: 1, unchanged: 1, rejected: [] });
    expect([...deps.masterData.categories.values()].map((c) => [c.name, c.category_code]).sort()).toEqual([
      ['Degalai', 'k-1'],
      ['Maistas', ''],
    ]);
  });

  it('rejects a category row without a code whose name an earlier row with a code gave', async () => {
    const { deps, upload, result } = setup();
    const sheet = await upload('categories', workbookBytes([['Kategorija', 'Kodas'], ['Mokymai', 'M1'], ['Mokymai', ''], ['MOKYMAI', 'M2']]));
    await runImport(deps, sheet.key);
    expect(await result(sheet.importId)).toMatchObject({
      status: 'done',
      created: 1,
      rejected: [
        { row: 3, reason: 'Name: same name as sheet row 2; names are compared without case and accents' },
        { row: 4, reason: 'Name: same name as sheet row 2; names are compared without case and accents' },
      ],
    });
    expect([...deps.masterData.categories.values()].map((c) => [c.name, c.category_code])).toEqual([['Mokymai', 'M1']]);
  });

  it('keeps the first of the rows that give one record twice and rejects the later ones, naming the first, also across chunks', async () => {
    const { deps, upload, result } = setup();
    const categories = await upload('categories', workbookBytes([['Kategorija', 'Kodas'], ['Kuras', 'K1'], ['Maistas', ''], ['Degalai', 'k 1'], ['MAISTAS', ''], ['Žuvis', ''], ['Zuvis', '']]));
    await runImport(deps, categories.key);
    expect(await result(categories.importId)).toMatchObject({
      status: 'done',
      created: 3,
      updated: 0,
      rejected: [
        { row: 4, reason: 'Code: same code as sheet row 2; codes are compared without spaces, dashes and case' },
        { row: 5, reason: 'Name: same name as sheet row 3; names are compared without case and accents' },
        { row: 7, reason: 'Name: same name as sheet row 6; names are compared without case and accents' },
      ],
    });
    expect([...deps.masterData.categories.values()].map((c) => c.name).sort()).toEqual(['Kuras', 'Maistas', 'Žuvis']);
    // 250 rows: the repeat of row 2 is in the third chunk of 100
    const rows = [['Name', 'Code'], ...Array.from({ length: 249 }, (_, i) => [`Supplier ${i}`, `C-${i}`]), ['Another name', 'c0']];
    const suppliers = await upload('suppliers', workbookBytes(rows));
    await runImport(deps, suppliers.key);
    expect(await result(suppliers.importId)).toMatchObject({
      status: 'done',
      total_rows: 250,
      created: 249,
      updated: 0,
      rejected: [{ row: 251, reason: 'Code: same code as sheet row 2; codes are compared without spaces, dashes and case' }],
    });
    expect(await deps.masterData.findStakeholder(COMPANY, 'supplier', 'code', 'C-0')).toMatchObject({ name: 'Supplier 0' });
  });

  it('refuses a file that is not a workbook, a file without the header and an oversized file, changing nothing', async () => {
    const { deps, upload, result } = setup();
    const png = await upload('suppliers', new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]));
    await runImport(deps, png.key);
    expect(await result(png.importId)).toMatchObject({ status: 'failed', message: WORKBOOK_MSG.notWorkbook, created: 0, total_rows: 0 });

    const noHeader = await upload('suppliers', workbookBytes([['Vardas', 'Miestas'], ['Alfa', 'Vilnius']]));
    await runImport(deps, noHeader.key);
    expect(await result(noHeader.importId)).toMatchObject({
      status: 'failed',
      message: 'No header row found in the first 10 rows: the sheet needs the columns Name (Pavadinimas) and Code (Kodas)',
    });

    // Larger than any declared size (written under the key with the product's own credentials): refused unread.
    const big = await upload('items', new Uint8Array(XLSX_MAX_BYTES + 1));
    await runImport(deps, big.key);
    expect(await result(big.importId)).toMatchObject({ status: 'failed', message: IMPORT_MSG.tooLarge });

    const empty = await upload('items', workbookBytes([['Name']]));
    await runImport(deps, empty.key);
    expect(await result(empty.importId)).toMatchObject({ status: 'failed', message: IMPORT_MSG.noRows });
    expect(deps.masterData.writes).toBe(0);
  });

  it('resumes a retried import after the last stored chunk: nothing is created twice or counted twice', async () => {
    const { deps, upload, result } = setup();
    const total = IMPORT_CHUNK_ROWS * 2 + 30;
    const rows = [['Name', 'Code'], ...Array.from({ length: total }, (_, i) => [`Supplier ${i}`, `C${i}`])];
    const { importId, key } = await upload('suppliers', workbookBytes(rows));
    // The first delivery dies in the middle of the second chunk.
    let writes = 0;
    deps.masterData.beforeWrite = () => {
      if (++writes === IMPORT_CHUNK_ROWS + 40) throw new Error('Lambda timed out');
    };
    await expect(runImport(deps, key)).rejects.toThrow('Lambda timed out');
    expect(await result(importId)).toMatchObject({ status: 'processing', created: IMPORT_CHUNK_ROWS });
    deps.masterData.beforeWrite = undefined;
    // The retry resumes at the second chunk; its rows written before the failure (39, and those of the other
    // writers that were under way) are already there with the row's values and count as unchanged.
    await runImport(deps, key);
    const res = await result(importId);
    expect(res).toMatchObject({ status: 'done', total_rows: total, updated: 0, rejected: [] });
    expect(res.created + res.unchanged).toBe(total);
    expect(res.unchanged).toBeGreaterThanOrEqual(39);
    expect(res.unchanged).toBeLessThan(39 + IMPORT_ROW_CONCURRENCY);
    expect(deps.masterData.stakeholders.size).toBe(total);
    // A third delivery of the same notification finds the import done and changes nothing.
    deps.files.objects.set(key, { bytes: workbookBytes(rows), contentType: XLSX_TYPE });
    const before = deps.masterData.writes;
    await runImport(deps, key);
    expect(deps.masterData.writes).toBe(before);
    expect(await result(importId)).toEqual(res);
  });

  it('on the last delivery, a failure ends the import with what was done', async () => {
    const { deps, upload, result } = setup();
    const rows = [['Name', 'Code'], ...Array.from({ length: IMPORT_CHUNK_ROWS + 5 }, (_, i) => [`Supplier ${i}`, `C${i}`])];
    const { importId, key } = await upload('suppliers', workbookBytes(rows));
    let writes = 0;
    deps.masterData.beforeWrite = () => {
      if (++writes > IMPORT_CHUNK_ROWS) throw new Error('throttled');
    };
    await runImport(deps, key, { final: true });
    expect(await result(importId)).toMatchObject({
      status: 'failed',
      created: IMPORT_CHUNK_ROWS,
      message: `The import stopped before it finished; rows up to sheet row ${IMPORT_CHUNK_ROWS + 1} were imported. Import the file again to finish it.`,
    });
    // The import is over: its file is not kept (another import of the file uploads it again).
    expect(deps.files.objects.has(key)).toBe(false);
  });

  it('stops before a chunk when the invocation is nearly out of time, to resume on the retry', async () => {
    const { deps, upload, result } = setup();
    const { importId, key } = await upload('items', workbookBytes([['Name'], ['Milk'], ['Bread']]));
    await expect(runImport(deps, key, { remainingMs: () => 1000 })).rejects.toMatchObject({ name: 'ImportPaused' });
    expect(await result(importId)).toMatchObject({ status: 'processing', created: 0 });
    await runImport(deps, key, { remainingMs: () => 600_000 });
    expect(await result(importId)).toMatchObject({ status: 'done', created: 2 });
  });
});
