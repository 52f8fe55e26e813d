/**
 * npm run bench:content-rows — how the content of a document grows with its line items: building it from what
 * recognition read, storing it and reading it back, a typed change of one field, and its validation, at 100 and at
 * 1,000 line items. Linear work costs about ten times as much at 1,000; the `ratio` line says how far from that
 * each step is (building the content was quadratic: 28 s for 1,000 line items).
 * Env: BENCH_SMALL (default 100), BENCH_LARGE (default 1000).
 */
import { performance } from 'node:perf_hooks';
import { buildContentFromExtraction } from '../../lambdas/core/content/build';
import { companySchema } from '../../lambdas/core/content/schema';
import { parseStoredContent } from '../../lambdas/core/content/service';
import { setValues } from '../../lambdas/core/content/tree';
import { validateContent } from '../../lambdas/core/content/validate';
import type { ExtractedFields, FieldValue } from '../../lambdas/core/recognition/types';
import { LINE_ITEM_COLUMNS } from '../../shared/schemas/content';

const SMALL = Number(process.env.BENCH_SMALL ?? 100);
const LARGE = Number(process.env.BENCH_LARGE ?? 1000);

function extraction(lines: number): ExtractedFields {
  const at = (value: string, row: number): FieldValue => ({ value, page: 1 + Math.floor(row / 40), box: { left: 0.1, top: (row % 40) / 40, width: 0.2, height: 0.01 }, confidence: 96 });
  return {
    supplier_name: at('UAB Didmena', 0),
    total: at(`${(lines * 12.5).toFixed(2)}`, 0),
    line_items: Array.from({ length: lines }, (_, row) => Object.fromEntries(LINE_ITEM_COLUMNS.map((c) => [c, at(c === 'description' ? `Prekė ${row}` : String(row + 1), row)]))),
    vat_lines: [],
  } as unknown as ExtractedFields;
}

function timed<T>(fn: () => T, repeat: number): { result: T; ms: number } {
  let result = fn();
  const start = performance.now();
  for (let i = 0; i < repeat; i++) result = fn();
  return { result, ms: (performance.now() - start) / repeat };
}

function measure(lines: number): Record<string, number> {
  const fields = extraction(lines);
  const schema = companySchema(undefined);
  const built = timed(() => buildContentFromExtraction(fields), 3);
  const stored = JSON.stringify({ items: built.result.items, seq: built.result.seq });
  const read = timed(() => parseStoredContent(JSON.parse(stored))!, 3);
  const lastRow = read.result.items.find((i) => i.schema_id === 'line_items')!.children.at(-1)!;
  const field = lastRow.children.find((c) => c.schema_id === 'description')!;
  const typed = timed(() => setValues(read.result, [{ id: field.id, value: 'Typed by hand' }]), 3);
  const checked = timed(() => validateContent(typed.result, schema, 'receipt'), 3);
  return { 'build from recognition': built.ms, 'read stored content': read.ms, 'type one field': typed.ms, validate: checked.ms };
}

const small = measure(SMALL);
const large = measure(LARGE);
console.log(`line items: ${SMALL} and ${LARGE} (linear work: ratio ${(LARGE / SMALL).toFixed(0)})`);
for (const step of Object.keys(small)) {
  console.log(`${step}: ${small[step]!.toFixed(1)} ms, ${large[step]!.toFixed(1)} ms, ratio ${(large[step]! / small[step]!).toFixed(1)}`);
}
