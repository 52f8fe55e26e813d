/**
 * The XLSX import line of `npm run bench:master-data`: a 10,000-row supplier workbook (half the codes already
 * among the company's suppliers, so half the rows update, half create) imported into the company with 100,000
 * suppliers through the real route (GET /upload/import, PUT to local S3) and the real import job (local queue).
 * Prints the time from the PUT to the import's end, rows per second, DynamoDB requests per row and the job's
 * chunks. Env: BENCH_IMPORT_ROWS (default 10000).
 *
 * Called by scripts/bench/master-data.ts (benchImport); the local stand-in (dynalite) is far slower than DynamoDB,
 * so the time is an upper bound of the job's own work, not a Lambda figure.
 */
import { performance } from 'node:perf_hooks';
import { IMPORT_CHUNK_ROWS } from '../../lambdas/core/master-data/import/service';
import type { ImportResult } from '../../shared/schemas/master-data';
import type { MasterDataBenchContext } from './master-data';
import { workbookBytes, XLSX_TYPE } from '../../test/support/workbooks';

const ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? 10_000);
/** The suppliers master-data.ts wrote before (same variable). */
const SUPPLIERS = Number(process.env.BENCH_SUPPLIERS ?? 100_000);

export async function benchImport(context: MasterDataBenchContext): Promise<void> {
  const { stack, token, companyId } = context;
  const auth = { authorization: `Bearer ${token}` };
  // Existing suppliers have codes S000000…; every other row updates one of them (a new city), the rest are new.
  const rows: string[][] = [['Pavadinimas', 'Įmonės kodas', 'PVM kodas', 'Miestas', 'Šalis']];
  for (let i = 0; i < ROWS; i++) {
    if (i % 2 === 0) rows.push([`Bench import updated ${i}`, `S${String(i).padStart(6, '0')}`, '', 'Kaunas', 'LT']);
    else rows.push([`Bench import new ${i}`, `NEW${String(i).padStart(6, '0')}`, `LT9${String(i).padStart(8, '0')}`, 'Vilnius', 'Lietuva']);
  }
  const bytes = workbookBytes(rows, 'xlsx');
  console.log(`XLSX import: ${ROWS.toLocaleString('en')} rows (${(bytes.length / 1024).toFixed(0)} KB), half updates by code, half new…`);

  const signed = await fetch(`${stack.apiUrl}/upload/import?company_id=${companyId}&upload_type=suppliers&content_type=${encodeURIComponent(XLSX_TYPE)}&original_file_name=bench.xlsx&size=${bytes.length}`, {
    headers: auth,
  });
  if (signed.status !== 200) throw new Error(`GET /upload/import → ${signed.status} ${await signed.text()}`);
  const { uploadURL, import_id: importId, headers } = (await signed.json()) as { uploadURL: string; import_id: string; headers: Record<string, string> };

  const started = performance.now();
  const { requests } = await context.countRequests(async () => {
    const put = await fetch(uploadURL, { method: 'PUT', headers, body: Buffer.from(bytes) });
    if (put.status !== 200) throw new Error(`PUT → ${put.status}`);
    await stack.importJobs.idle(3_600_000);
  });
  const seconds = (performance.now() - started) / 1000;
  const res = await fetch(`${stack.apiUrl}/upload/import/${importId}?company_id=${companyId}`, { headers: auth });
  const result = (await res.json()) as ImportResult;
  const total = [...requests.values()].reduce((a, b) => a + b, 0);
  console.log(`import time of a ${ROWS.toLocaleString('en')}-row XLSX into a company with ${SUPPLIERS.toLocaleString('en')} suppliers: ${seconds.toFixed(1)} s (${(ROWS / seconds).toFixed(0)} rows/s, local stand-ins)`);
  console.log(`  result: ${result.status}, ${result.created} created, ${result.updated} updated, ${result.rejected.length} rejected${result.message ? ` (${result.message})` : ''}`);
  console.log(`  dynamodb requests per row: ${(total / ROWS).toFixed(2)} (${[...requests].map(([c, n]) => `${c} ${n}`).join(', ')})`);
  console.log(`  chunks of ${IMPORT_CHUNK_ROWS} rows, each committed with its counts: ${Math.ceil(ROWS / IMPORT_CHUNK_ROWS)}`);
}
