/**
 * The line-items grid editor's geometry, in fractions of the page (0..1) like the stored grid. A part's
 * `rows` are the tops of its row bands and `columns` the left edges of its column bands; the first row is the
 * box's top and the first column its left, so the lines a person sees and moves are all the others.
 * A line dropped within LINE_SNAP_PX (6 px on screen) of an existing line counts as that line: clicking there
 * deletes it (rules.md 5).
 */
import { LINE_SNAP_PX } from '../../../../../shared/constants';
import type { Box, GridPart } from '../../../../../shared/schemas/content';

export type EditorPart = Omit<GridPart, 'box'> & { box: Box };
export type Side = 'left' | 'right' | 'top' | 'bottom';

/** Smallest size of the box and of a band, in fractions. */
const MIN = 0.005;
const round = (n: number) => Math.round(n * 1e6) / 1e6;
const clamp = (n: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, n));

export function boxFromPoints(a: { x: number; y: number }, b: { x: number; y: number }): Box {
  const left = clamp(Math.min(a.x, b.x), 0, 1);
  const top = clamp(Math.min(a.y, b.y), 0, 1);
  return { left: round(left), top: round(top), width: round(clamp(Math.max(a.x, b.x), 0, 1) - left), height: round(clamp(Math.max(a.y, b.y), 0, 1) - top) };
}

export function newPart(page: number, document: string | null, box: Box): EditorPart {
  return { page, document, box, rows: [{ top_position: box.top }], columns: [{ schema_id: null, left_position: box.left }] };
}

/** A stored part (possibly unnormalised) as the editor keeps it: sorted, inside the box, first row/column at the edges. */
export function editorPart(part: GridPart): EditorPart | null {
  const b = part.box;
  if ([b.left, b.top, b.width, b.height].some((n) => typeof n !== 'number')) return null;
  const box = b as Box;
  const right = box.left + box.width;
  const bottom = box.top + box.height;
  const rows = [...new Set(part.rows.map((r) => round(r.top_position)))].filter((t) => t > box.top + 1e-6 && t < bottom - 1e-6).sort((x, y) => x - y);
  const columns = part.columns.filter((c) => c.left_position > box.left + 1e-6 && c.left_position < right - 1e-6).sort((x, y) => x.left_position - y.left_position);
  const first = part.columns.find((c) => Math.abs(c.left_position - box.left) < 1e-6);
  return {
    page: part.page,
    document: part.document,
    box,
    rows: [{ top_position: box.top }, ...rows.map((t) => ({ top_position: t }))],
    columns: [{ schema_id: first?.schema_id ?? null, left_position: box.left }, ...columns.map((c) => ({ schema_id: c.schema_id, left_position: round(c.left_position) }))],
  };
}

/** The index (≥ 1) of the row line within snap distance of `y`, or -1. */
export function rowLineNear(part: EditorPart, y: number, pageHeightPx: number): number {
  const snap = LINE_SNAP_PX / Math.max(pageHeightPx, 1);
  return part.rows.findIndex((r, i) => i > 0 && Math.abs(r.top_position - y) <= snap);
}

export function columnLineNear(part: EditorPart, x: number, pageWidthPx: number): number {
  const snap = LINE_SNAP_PX / Math.max(pageWidthPx, 1);
  return part.columns.findIndex((c, i) => i > 0 && Math.abs(c.left_position - x) <= snap);
}

/** Adds a row line at `y`, or removes the one within 6 px of it. Outside the box nothing changes. */
export function toggleRowLine(part: EditorPart, y: number, pageHeightPx: number): EditorPart {
  const near = rowLineNear(part, y, pageHeightPx);
  if (near > 0) return { ...part, rows: part.rows.filter((_, i) => i !== near) };
  if (y <= part.box.top + MIN || y >= part.box.top + part.box.height - MIN) return part;
  return { ...part, rows: [...part.rows, { top_position: round(y) }].sort((a, b) => a.top_position - b.top_position) };
}

/** Adds a column line at `x` (the new band takes no field yet), or removes the one within 6 px of it. */
export function toggleColumnLine(part: EditorPart, x: number, pageWidthPx: number): EditorPart {
  const near = columnLineNear(part, x, pageWidthPx);
  if (near > 0) return { ...part, columns: part.columns.filter((_, i) => i !== near) };
  if (x <= part.box.left + MIN || x >= part.box.left + part.box.width - MIN) return part;
  return { ...part, columns: [...part.columns, { schema_id: null, left_position: round(x) }].sort((a, b) => a.left_position - b.left_position) };
}

/** Moves row line `index` (≥ 1) to `y`, kept between its neighbours. */
export function moveRowLine(part: EditorPart, index: number, y: number): EditorPart {
  if (index < 1 || index >= part.rows.length) return part;
  const lo = part.rows[index - 1]!.top_position + MIN;
  const hi = (part.rows[index + 1]?.top_position ?? part.box.top + part.box.height) - MIN;
  const rows = part.rows.map((r, i) => (i === index ? { top_position: round(clamp(y, lo, hi)) } : r));
  return { ...part, rows };
}

export function moveColumnLine(part: EditorPart, index: number, x: number): EditorPart {
  if (index < 1 || index >= part.columns.length) return part;
  const lo = part.columns[index - 1]!.left_position + MIN;
  const hi = (part.columns[index + 1]?.left_position ?? part.box.left + part.box.width) - MIN;
  const columns = part.columns.map((c, i) => (i === index ? { ...c, left_position: round(clamp(x, lo, hi)) } : c));
  return { ...part, columns };
}

/** Moves the whole grid (box and lines) by dx, dy, kept on the page. */
export function moveBox(part: EditorPart, dx: number, dy: number): EditorPart {
  const ddx = clamp(dx, -part.box.left, 1 - part.box.left - part.box.width);
  const ddy = clamp(dy, -part.box.top, 1 - part.box.top - part.box.height);
  return {
    ...part,
    box: { ...part.box, left: round(part.box.left + ddx), top: round(part.box.top + ddy) },
    rows: part.rows.map((r) => ({ top_position: round(r.top_position + ddy) })),
    columns: part.columns.map((c) => ({ ...c, left_position: round(c.left_position + ddx) })),
  };
}

/** Moves one side of the box to `pos`; lines that end up outside are dropped, the first row/column follow the edge. */
export function resizeBox(part: EditorPart, side: Side, pos: number): EditorPart {
  let { left, top, width, height } = part.box;
  const right = left + width;
  const bottom = top + height;
  if (side === 'left') left = clamp(pos, 0, right - MIN);
  if (side === 'right') width = clamp(pos, left + MIN, 1) - left;
  if (side === 'top') top = clamp(pos, 0, bottom - MIN);
  if (side === 'bottom') height = clamp(pos, top + MIN, 1) - top;
  if (side === 'left') width = right - left;
  if (side === 'top') height = bottom - top;
  const box = { left: round(left), top: round(top), width: round(width), height: round(height) };
  return editorPart({ ...part, box, rows: part.rows.slice(1), columns: [{ ...part.columns[0]!, left_position: box.left }, ...part.columns.slice(1)] })!;
}

export function setColumnField(part: EditorPart, index: number, schemaId: string | null): EditorPart {
  return { ...part, columns: part.columns.map((c, i) => (i === index ? { ...c, schema_id: schemaId } : c)) };
}

export function deleteAllRows(part: EditorPart): EditorPart {
  return { ...part, rows: [{ top_position: part.box.top }] };
}

/** Removes every column line; the one remaining band keeps the first column's field. */
export function deleteAllColumns(part: EditorPart): EditorPart {
  return { ...part, columns: [{ schema_id: part.columns[0]?.schema_id ?? null, left_position: part.box.left }] };
}

/** What Apply may send: the grid gives a result only with a box and at least one column with a field. */
export function canApply(parts: EditorPart[]): boolean {
  return parts.length > 0 && parts.every((p) => p.box.width > 0 && p.box.height > 0) && parts.some((p) => p.columns.some((c) => c.schema_id));
}

/** Bands of a part for drawing: column [left, right) with its field. */
export function columnBands(part: EditorPart): { index: number; left: number; right: number; schema_id: string | null }[] {
  return part.columns.map((c, i) => ({ index: i, left: c.left_position, right: part.columns[i + 1]?.left_position ?? part.box.left + part.box.width, schema_id: c.schema_id }));
}
