/**
 * Line-items grids. A grid part is a box on one page divided into bands: `rows` are the tops of the row
 * bands and `columns` the left edges of the column bands (each with the datapoint it fills); the first row
 * starts at the box's top and the first column at its left. Applying a grid reads every cell's words and
 * turns each row band into a line item.
 *
 * Rules (rules.md): a grid gives a result only if its document (page) exists, at least one column fills a
 * datapoint and the box has all four coordinates; rows and columns outside the box are dropped.
 */
import { createHash } from 'node:crypto';
import type { Box, ContentValue, Grid, GridPart, SchemaField } from '../../../shared/schemas/content';
import { AppError } from '../../../shared/errors';
import type { DateFormat } from '../recognition/types';
import type { OcrBox, PageBoxes } from './build';
import { readArea, textLines } from './read';

const EPS = 1e-6;

export interface NormalisedPart extends GridPart {
  box: Box;
}

function isBox(b: Partial<Box>): b is Box {
  return [b.left, b.top, b.width, b.height].every((n) => typeof n === 'number' && Number.isFinite(n)) && b.width! > 0 && b.height! > 0;
}

const round = (n: number) => Math.round(n * 1e6) / 1e6;

/** The part with its box clipped to the page, rows/columns outside the box dropped, sorted and deduplicated. */
export function normalisePart(part: GridPart): NormalisedPart | undefined {
  if (!isBox(part.box)) return undefined;
  const left = Math.max(0, part.box.left);
  const top = Math.max(0, part.box.top);
  const box = { left: round(left), top: round(top), width: round(Math.min(1, part.box.left + part.box.width) - left), height: round(Math.min(1, part.box.top + part.box.height) - top) };
  if (box.width <= 0 || box.height <= 0) return undefined;
  const right = box.left + box.width;
  const bottom = box.top + box.height;
  const rowTops = [...new Set(part.rows.map((r) => round(r.top_position)).filter((t) => t > box.top + EPS && t < bottom - EPS))].sort((a, b) => a - b);
  const cols = part.columns
    .map((c) => ({ schema_id: c.schema_id, left_position: round(c.left_position) }))
    .filter((c) => c.left_position >= box.left - EPS && c.left_position < right - EPS)
    .sort((a, b) => a.left_position - b.left_position);
  const columns: GridPart['columns'] = [];
  for (const c of cols) {
    const last = columns[columns.length - 1];
    if (last && Math.abs(last.left_position - c.left_position) < EPS) {
      last.schema_id ??= c.schema_id;
      continue;
    }
    columns.push(c);
  }
  if (!columns.length || columns[0]!.left_position > box.left + EPS) columns.unshift({ schema_id: null, left_position: box.left });
  columns[0]!.left_position = box.left;
  return { document: part.document, page: part.page, box, rows: [{ top_position: box.top }, ...rowTops.map((t) => ({ top_position: t }))], columns };
}

/** Why a grid cannot be applied, or an empty list. */
export function gridProblems(parts: GridPart[], pageCount: number): string[] {
  const problems: string[] = [];
  if (!parts.length) problems.push('Draw the grid on the page first');
  for (const p of parts) {
    if (p.page < 1 || p.page > pageCount) problems.push(`Page ${p.page} does not exist`);
    if (!isBox(p.box)) problems.push('The grid area needs all four coordinates');
    if (!p.columns.some((c) => c.schema_id)) problems.push('Assign a field to at least one column');
  }
  return [...new Set(problems)];
}

export interface GridRowResult {
  values: Record<string, ContentValue>;
  file: string | null;
}

/** Reads the line items of one normalised part from the page's words. Rows without any value are left out. */
export function readPart(part: NormalisedPart, words: OcrBox[], fields: Map<string, SchemaField>, file: string | null, dateFormat?: DateFormat): GridRowResult[] {
  const bottom = part.box.top + part.box.height;
  const right = part.box.left + part.box.width;
  const out: GridRowResult[] = [];
  part.rows.forEach((row, ri) => {
    const rowTop = row.top_position;
    const rowBottom = part.rows[ri + 1]?.top_position ?? bottom;
    const values: Record<string, ContentValue> = {};
    part.columns.forEach((col, ci) => {
      if (!col.schema_id) return;
      const field = fields.get(col.schema_id);
      if (!field) return;
      const colRight = part.columns[ci + 1]?.left_position ?? right;
      const cell: Box = { left: col.left_position, top: rowTop, width: colRight - col.left_position, height: rowBottom - rowTop };
      const read = readArea(words, cell, field, dateFormat);
      if (!read.text) return;
      const prev = values[col.schema_id];
      values[col.schema_id] = {
        value: prev ? `${prev.value} ${read.value}` : read.value,
        position: read.position,
        page: part.page,
        block_id: read.block_id,
        confidence: read.confidence,
      };
    });
    if (Object.keys(values).length) out.push({ values, file });
  });
  return out;
}

/** Applies all parts of a grid: the line items in page order, and the grid as stored (normalised). */
export function applyGrid(
  grid: Grid,
  pages: PageBoxes[],
  schema: SchemaField[],
  opts: { pageCount: number; dateFormat?: DateFormat; multivalueSchemaId?: string },
): { rows: GridRowResult[]; grid: Grid } {
  const problems = gridProblems(grid.parts, opts.pageCount);
  if (problems.length) {
    throw new AppError('ValidationFailed', problems[0]!, problems.map((message) => ({ path: ['parts'], message })));
  }
  const tupleParent = opts.multivalueSchemaId ?? 'line_items';
  const tuple = schema.find((f) => f.parent_schema_id === tupleParent && f.category === 'tuple');
  const allowed = new Map(schema.filter((f) => f.parent_schema_id === tuple?.id).map((f) => [f.id, f]));
  const parts = grid.parts.map((p) => normalisePart(p)!).sort((a, b) => a.page - b.page || a.box.top - b.box.top);
  for (const p of parts) {
    for (const c of p.columns) if (c.schema_id && !allowed.has(c.schema_id)) throw new AppError('ValidationFailed', `Unknown column ${c.schema_id}`, [{ path: ['parts'], message: `Unknown column ${c.schema_id}` }]);
  }
  const rows: GridRowResult[] = [];
  for (const p of parts) {
    const page = pages.find((pg) => pg.page === p.page);
    rows.push(...readPart(p, page?.words ?? [], allowed, page?.file ?? p.document, opts.dateFormat));
  }
  return { rows, grid: { parts } };
}

/**
 * Row lines for a box from the words inside it: one row per printed text line. Used when a saved grid
 * template is applied to a new document of the same supplier (columns stay, rows follow the document).
 */
export function autoRows(box: Box, words: OcrBox[]): { top_position: number }[] {
  const inBox = words.filter((w) => {
    const cx = w.left + w.width / 2;
    const cy = w.top + w.height / 2;
    return cx >= box.left && cx <= box.left + box.width && cy >= box.top && cy <= box.top + box.height;
  });
  const lines = textLines(inBox);
  const tops: number[] = [box.top];
  for (let i = 1; i < lines.length; i++) {
    const prevBottom = Math.max(...lines[i - 1]!.map((w) => w.top + w.height));
    const top = Math.min(...lines[i]!.map((w) => w.top));
    tops.push(round((prevBottom + top) / 2));
  }
  return tops.map((t) => ({ top_position: t }));
}

/** A saved template applied to a document: the same box and columns, rows from the document's own lines. */
export function gridFromTemplate(template: Grid, pages: PageBoxes[]): Grid {
  return {
    parts: template.parts.map((p) => {
      const np = normalisePart(p);
      if (!np) return p;
      const words = pages.find((pg) => pg.page === p.page)?.words ?? [];
      return { ...np, document: pages.find((pg) => pg.page === p.page)?.file ?? np.document, rows: autoRows(np.box, words) };
    }),
  };
}

/** Longest folded value a template key keeps as it is; DynamoDB sort keys allow 1 KB. */
export const TEMPLATE_KEY_VALUE_MAX = 200;

/**
 * A folded value within TEMPLATE_KEY_VALUE_MAX: a longer one (a code or name typed or read at any length) keeps its
 * start and a digest of the whole, so it stays one key of its own and can never make the key too long for the
 * table (every content answer reads the template).
 */
function bounded(value: string): string {
  if (value.length <= TEMPLATE_KEY_VALUE_MAX) return value;
  return `${value.slice(0, 100)}~${createHash('sha256').update(value).digest('hex').slice(0, 32)}`;
}

/** The key a grid template is saved under: the stakeholder's code, else its name, folded. */
export function templateKey(code: string, name: string): string | undefined {
  const fold = (s: string) =>
    s
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]/g, '');
  const c = fold(code);
  if (c) return `code:${bounded(c)}`;
  const n = fold(name);
  return n ? `name:${bounded(n)}` : undefined;
}
