import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ddbMasterDataStore } from '../../lambdas/adapters/ddb/master-data-store';
import { IMPORT_MSG } from '../../lambdas/core/master-data/import/service';
import { WORKBOOK_MSG } from '../../lambdas/core/master-data/import/workbook';
import { s3Files } from '../../lambdas/adapters/s3/files';
import { XLSX_MAX_BYTES } from '../../shared/constants';
import { BUCKET } from '../../scripts/local/stack';
import type { ImportResult } from '../../shared/schemas/master-data';
import { apiClient, registeredUser, startTestStack, type TestStack } from '../support/local-stack';
import { workbookBytes, XLS_TYPE, XLSX_TYPE } from '../support/workbooks';

type Api = ReturnType<typeof apiClient>;

describe('master data XLSX/XLS import through the local API and the import job', () => {
  let t: TestStack;
  let owner: { api: Api; companyId: string };
  let stranger: { api: Api; companyId: string };

  beforeAll(async () => {
    t = await startTestStack();
    owner = await registeredUser(t.stack, 'importer');
    stranger = await registeredUser(t.stack, 'stranger');
  });
  afterAll(async () => {
    await t?.stop();
  });

  /** GET /upload/import, then the PUT of the bytes to the presigned URL, as the pop-up does. */
  async function upload(api: Api, companyId: string, type: string, bytes: Uint8Array, contentType = XLSX_TYPE) {
    const signed = await api.get(`/upload/import?company_id=${companyId}&upload_type=${type}&content_type=${encodeURIComponent(contentType)}&size=${bytes.length}&original_file_name=list`);
    expect(signed.status).toBe(200);
    const body = signed.body as { uploadURL: string; import_id: string; headers: Record<string, string> };
    const put = await fetch(body.uploadURL, { method: 'PUT', headers: body.headers, body: Buffer.from(bytes) });
    expect(put.status).toBe(200);
    return body.import_id;
  }

  async function resultOf(api: Api, companyId: string, importId: string) {
    await t.stack.importJobs.idle();
    const res = await api.get(`/upload/import/${importId}?company_id=${companyId}`);
    expect(res.status).toBe(200);
    return res.body as ImportResult;
  }

  it('imports suppliers from an .xlsx with Lithuanian headers below a title row', async () => {
    const rows = [
      ['Tiekėjai'],
      ['Pavadinimas', 'Įmonės kodas', 'PVM kodas', 'Miestas', 'Šalis', 'El. paštas'],
      ['Alfa UAB', '302000001', 'LT100000001', 'Vilnius', 'Lietuva', 'info@alfa.lt'],
      ['Beta UAB', '302000002', '', 'Kaunas', 'LT', ''],
      ['Gama GmbH', '302000003', 'DE123', 'Berlin', 'Germany', ''],
    ];
    const importId = await upload(owner.api, owner.companyId, 'suppliers', workbookBytes(rows));
    const result = await resultOf(owner.api, owner.companyId, importId);
    expect(result).toMatchObject({ import_id: importId, upload_type: 'suppliers', status: 'done', message: null, total_rows: 3, created: 3, updated: 0, rejected: [] });
    expect(result.finished_at).not.toBeNull();
    expect(await ddbMasterDataStore.findStakeholder(owner.companyId, 'supplier', 'code', '302000001')).toMatchObject({
      name: 'Alfa UAB',
      vat_id: 'LT100000001',
      city: 'Vilnius',
      country: 'LT',
      email: 'info@alfa.lt',
    });
    expect(await ddbMasterDataStore.findStakeholder(owner.companyId, 'supplier', 'code', '302000003')).toMatchObject({ country: 'DE' });
    // Another company sees none of them.
    expect(await ddbMasterDataStore.findStakeholder(stranger.companyId, 'supplier', 'code', '302000001')).toBeUndefined();
  });

  it('imports items from a legacy .xls and updates them by name on the next import', async () => {
    const first = await upload(owner.api, owner.companyId, 'items', workbookBytes([['Prekė', 'Žodžiai', 'Word 1'], ['Pienas', 'milk, pieno', 'dairy'], ['Duona', 'bread', '']], 'xls'), XLS_TYPE);
    expect(await resultOf(owner.api, owner.companyId, first)).toMatchObject({ status: 'done', created: 2, updated: 0 });
    expect(await ddbMasterDataStore.getItem(owner.companyId, 'pienas')).toMatchObject({ name: 'Pienas', words: ['milk', 'pieno', 'dairy'] });
    const second = await upload(owner.api, owner.companyId, 'items', workbookBytes([['Name', 'Words'], ['pienas', 'milk'], ['Sūris', 'cheese']], 'xls'), XLS_TYPE);
    expect(await resultOf(owner.api, owner.companyId, second)).toMatchObject({ status: 'done', created: 1, updated: 1 });
    expect(await ddbMasterDataStore.getItem(owner.companyId, 'pienas')).toMatchObject({ name: 'pienas', words: ['milk'] });
    expect((await ddbMasterDataStore.findItemsByWords(owner.companyId, ['cheese'], 5)).map((i) => i.name)).toEqual(['Sūris']);
  });

  it('reports each rejected row with its sheet row number and reason', async () => {
    const rows = [
      ['Name', 'Code', 'Country', 'Category'],
      ['Delta UAB', '302000004', 'LT', ''],
      ['No code UAB', '', '', ''],
      ['Epsilon UAB', '302000005', 'Narnia', ''],
      ['alfa uab', '302000006', '', ''],
      ['Zeta UAB', '302000007', '', 'Unknown category'],
      ['Alfa UAB', '302000001', 'LV', ''],
    ];
    const importId = await upload(owner.api, owner.companyId, 'suppliers', workbookBytes(rows));
    const result = await resultOf(owner.api, owner.companyId, importId);
    expect(result).toMatchObject({ status: 'done', total_rows: 6, created: 1, updated: 1 });
    expect(result.rejected).toEqual([
      { row: 3, reason: 'Code: Required field' },
      { row: 4, reason: 'Country: unknown country "Narnia"' },
      { row: 5, reason: 'Name: This supplier already exists' },
      { row: 6, reason: 'Category: no category "Unknown category" in this company' },
    ]);
    expect(await ddbMasterDataStore.findStakeholder(owner.companyId, 'supplier', 'code', '302000001')).toMatchObject({ country: 'LV', city: 'Vilnius' });
  });

  it('refuses a file that is not a workbook whatever its name and type say, changing nothing', async () => {
    const fake = new TextEncoder().encode('Name,Code\nOmega UAB,302000009\n');
    const importId = await upload(owner.api, owner.companyId, 'suppliers', fake);
    const result = await resultOf(owner.api, owner.companyId, importId);
    expect(result).toMatchObject({ status: 'failed', message: WORKBOOK_MSG.notWorkbook, created: 0, updated: 0, total_rows: 0, rejected: [] });
    expect(await ddbMasterDataStore.findStakeholder(owner.companyId, 'supplier', 'code', '302000009')).toBeUndefined();

    const noHeader = await upload(owner.api, owner.companyId, 'categories', workbookBytes([['Something'], ['Else']]));
    expect(await resultOf(owner.api, owner.companyId, noHeader)).toMatchObject({
      status: 'failed',
      message: 'No header row found in the first 10 rows: the sheet needs the column Name (Pavadinimas)',
    });
  });

  it('refuses other content types and unknown upload types up front', async () => {
    const png = await owner.api.get(`/upload/import?company_id=${owner.companyId}&upload_type=items&content_type=image%2Fpng&size=100`);
    expect(png.status).toBe(422);
    expect(png.body).toMatchObject({ details: [{ path: ['content_type'], message: 'This file type is not allowed' }] });
    const type = await owner.api.get(`/upload/import?company_id=${owner.companyId}&upload_type=documents&content_type=${encodeURIComponent(XLSX_TYPE)}&size=100`);
    expect(type.status).toBe(422);
  });

  it('the upload URL takes the declared size once: another length, a second PUT and a size over 10 MB are refused', async () => {
    const ask = (size: number | string) =>
      owner.api.get(`/upload/import?company_id=${owner.companyId}&upload_type=categories&content_type=${encodeURIComponent(XLSX_TYPE)}&size=${size}`);
    const tooLarge = await ask(XLSX_MAX_BYTES + 1);
    expect(tooLarge.status).toBe(422);
    expect(tooLarge.body).toMatchObject({ message: IMPORT_MSG.tooLarge, details: [{ path: ['size'] }] });
    expect((await ask(0)).status).toBe(422);
    expect((await ask('')).status).toBe(422);
    expect((await owner.api.get(`/upload/import?company_id=${owner.companyId}&upload_type=categories&content_type=${encodeURIComponent(XLSX_TYPE)}`)).status).toBe(422);

    const bytes = workbookBytes([['Kategorija', 'Kodas'], ['Once', 'ONCE1']]);
    const signed = (await ask(bytes.length)).body as { uploadURL: string; import_id: string; headers: Record<string, string> };
    expect(signed.headers).toEqual({ 'content-type': XLSX_TYPE, 'if-none-match': '*' });
    expect(new URL(signed.uploadURL).searchParams.get('X-Amz-SignedHeaders')).toBe('content-length;content-type;host;if-none-match');
    const key = `imports/${signed.import_id}`;
    // Another length (a 5 GB body would be refused the same way): the signature does not match, nothing is stored.
    const larger = await fetch(signed.uploadURL, { method: 'PUT', headers: signed.headers, body: new Uint8Array(bytes.length + 1000) });
    expect(larger.status).toBe(403);
    expect(await larger.text()).toContain('SignatureDoesNotMatch');
    // Without the signed If-None-Match the signature does not match either.
    const { 'if-none-match': _dropped, ...unconditional } = signed.headers;
    expect((await fetch(signed.uploadURL, { method: 'PUT', headers: unconditional, body: Buffer.from(bytes) })).status).toBe(403);
    expect(await s3Files.head(key)).toBeUndefined();

    // The exact length with the signed headers is stored (a second PUT while the object is there gets 412, as
    // for documents: test/integration/upload-limits.test.ts).
    expect((await fetch(signed.uploadURL, { method: 'PUT', headers: signed.headers, body: Buffer.from(bytes) })).status).toBe(200);
    const result = await resultOf(owner.api, owner.companyId, signed.import_id);
    expect(result).toMatchObject({ status: 'done', created: 1, total_rows: 1 });
    expect(await s3Files.head(key)).toBeUndefined();

    // After the import ended the URL may write once more (nothing is there): the job deletes it unread.
    expect((await fetch(signed.uploadURL, { method: 'PUT', headers: signed.headers, body: Buffer.from(bytes) })).status).toBe(200);
    expect(await resultOf(owner.api, owner.companyId, signed.import_id)).toEqual(result);
    expect(await s3Files.head(key)).toBeUndefined();
  });

  it('a duplicate or late delivery of the notification creates nothing twice and counts nothing twice', async () => {
    const rows = [['Name', 'Code'], ...Array.from({ length: 230 }, (_, i) => [`Retry supplier ${i}`, `RS${i}`])];
    const importId = await upload(owner.api, owner.companyId, 'customers', workbookBytes(rows));
    // SQS delivers at least once: the same notification arrives again while the first runs…
    const record = { eventName: 'ObjectCreated:Put', s3: { bucket: { name: BUCKET }, object: { key: `imports/${importId}`, size: 1 } } };
    t.stack.importJobs.deliver(record);
    const result = await resultOf(owner.api, owner.companyId, importId);
    expect(result).toMatchObject({ status: 'done', total_rows: 230, rejected: [] });
    // Every row counted once. Which delivery commits a chunk is a race: a row the other delivery wrote first is
    // found holding its values and counts as unchanged (lambdas/core/master-data/import/apply.ts), so the split
    // between created and unchanged may vary, the sum may not.
    expect(result.created + result.updated + result.unchanged).toBe(230);
    expect(result.updated).toBe(0);
    expect(result.created).toBeGreaterThan(0);
    // …and once more after it finished.
    t.stack.importJobs.deliver(record);
    expect(await resultOf(owner.api, owner.companyId, importId)).toEqual(result);
    for (const i of [0, 99, 100, 229]) {
      expect(await ddbMasterDataStore.findStakeholder(owner.companyId, 'customer', 'code', `RS${i}`)).toMatchObject({ name: `Retry supplier ${i}` });
    }
    let count = 0;
    let cursor: string | undefined;
    do {
      const page = await ddbMasterDataStore.listStakeholders({ companyId: owner.companyId, type: 'customer', source: 'all', limit: 50, cursor, search: 'retry' });
      count += page.items.length;
      cursor = page.cursor ?? undefined;
    } while (cursor);
    expect(count).toBe(230);
    expect(t.stack.importJobs.deadLetters).toHaveLength(0);
  });

  it('two imports of the same suppliers at once: the rows one loses to the other update its records, none is rejected', async () => {
    const u = await registeredUser(t.stack, 'twoimports');
    const N = 300;
    // The same suppliers; the second file also gives an email, which only it can have written.
    const a = [['Pavadinimas', 'Įmonės kodas', 'Miestas'], ...Array.from({ length: N }, (_, i) => [`Antras ${i} Šilas`, `9${String(i).padStart(8, '0')}`, 'Vilnius'])];
    const b = [['Pavadinimas', 'Įmonės kodas', 'Miestas', 'El. paštas'], ...Array.from({ length: N }, (_, i) => [`Antras ${i} Šilas`, `9${String(i).padStart(8, '0')}`, 'Vilnius', `s${i}@silas.lt`])];
    const [first, second] = await Promise.all([upload(u.api, u.companyId, 'suppliers', workbookBytes(a)), upload(u.api, u.companyId, 'suppliers', workbookBytes(b))]);
    const ra = await resultOf(u.api, u.companyId, first);
    const rb = await resultOf(u.api, u.companyId, second);
    expect(ra).toMatchObject({ status: 'done', total_rows: N, rejected: [] });
    expect(rb).toMatchObject({ status: 'done', total_rows: N, rejected: [] });
    // A row whose values the other import already wrote is unchanged (file a's rows hold nothing b's lack).
    expect(ra.created + ra.updated + ra.unchanged).toBe(N);
    expect(rb.created + rb.updated + rb.unchanged).toBe(N);
    expect(ra.created + rb.created).toBe(N);
    for (const i of [0, 1, 150, N - 1]) {
      expect(await ddbMasterDataStore.findStakeholder(u.companyId, 'supplier', 'code', `9${String(i).padStart(8, '0')}`)).toMatchObject({ name: `Antras ${i} Šilas`, email: `s${i}@silas.lt` });
    }
    let count = 0;
    let cursor: string | undefined;
    do {
      const page = await ddbMasterDataStore.listStakeholders({ companyId: u.companyId, type: 'supplier', source: 'all', limit: 100, cursor });
      count += page.items.length;
      cursor = page.cursor ?? undefined;
    } while (cursor);
    expect(count).toBe(N);
  });

  it('answers another company’s import as not found and an anonymous caller 401', async () => {
    const importId = await upload(owner.api, owner.companyId, 'categories', workbookBytes([['Kategorija', 'Kodas'], ['Kuras', 'K1']]));
    expect(await resultOf(owner.api, owner.companyId, importId)).toMatchObject({ status: 'done', created: 1 });
    // A member of another company, asking in their own company: not found.
    const other = await stranger.api.get(`/upload/import/${importId}?company_id=${stranger.companyId}`);
    expect(other.status).toBe(404);
    // …or in the owner's company, of which they are not a member: forbidden.
    expect((await stranger.api.get(`/upload/import/${importId}?company_id=${owner.companyId}`)).status).toBe(403);
    expect((await stranger.api.get(`/upload/import?company_id=${owner.companyId}&upload_type=items&content_type=${encodeURIComponent(XLSX_TYPE)}&size=100`)).status).toBe(403);
    const anonymous = apiClient(t.stack.apiUrl);
    expect((await anonymous.get(`/upload/import/${importId}?company_id=${owner.companyId}`)).status).toBe(401);
    expect((await anonymous.get(`/upload/import?company_id=${owner.companyId}&upload_type=items&content_type=${encodeURIComponent(XLSX_TYPE)}&size=100`)).status).toBe(401);
    expect((await owner.api.get(`/upload/import/01UNKNOWN?company_id=${owner.companyId}`)).status).toBe(404);
  });
});
