/**
 * The Lines pop-up draws only the rows in and near its scrolled view (a table of hundreds of line items otherwise
 * puts tens of thousands of elements on the page: slow to open, and every key typed lays them out again). Rows
 * out of the view are stood in for by empty rows of their height, so the scroll bar and the scroll position stay
 * those of the whole table.
 */

/** Tables up to this many rows are drawn whole. */
export const WINDOW_FROM = 60;
/** Rows drawn above and below the view (a Tab or an arrow key reaches them before the view moves on). */
export const OVERSCAN = 12;
/** A row's height before one is measured (a 30 px field, its padding and border). */
export const ROW_HEIGHT = 37;

export interface ScrollView {
  /** The table's scroll position (px from its top) and the height of its view. */
  top: number;
  height: number;
}

/**
 * The rows to draw, in order: those in and near the view, and `keep` (the row holding the focus stays wherever the
 * view goes, so typing in it goes on). Every row when the table is short.
 */
export function rowsToDraw(count: number, view: ScrollView, rowHeight: number, keep: ReadonlyArray<number> = []): number[] {
  if (count <= WINDOW_FROM) return Array.from({ length: count }, (_, i) => i);
  const h = Math.max(1, rowHeight);
  const last = Math.min(count - 1, Math.ceil((view.top + view.height) / h) + OVERSCAN);
  // (a view below the last row, the rows having shrunk under it: the last rows)
  const first = Math.max(0, Math.min(Math.floor(view.top / h), last - Math.ceil(view.height / h)) - OVERSCAN);
  const out = new Set<number>();
  for (let i = first; i <= last; i++) out.add(i);
  for (const k of keep) if (k >= 0 && k < count) out.add(k);
  return [...out].sort((a, b) => a - b);
}

/** The drawn rows with, before each run of them and after the last, the number of rows left out there. */
export function withGaps(count: number, drawn: ReadonlyArray<number>): Array<{ row: number } | { gap: number; at: number }> {
  const out: Array<{ row: number } | { gap: number; at: number }> = [];
  let next = 0;
  for (const i of drawn) {
    if (i > next) out.push({ gap: i - next, at: next });
    out.push({ row: i });
    next = i + 1;
  }
  if (count > next) out.push({ gap: count - next, at: next });
  return out;
}
