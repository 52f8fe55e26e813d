import { useRef, useState, type PointerEvent as ReactPointerEvent } from 'react';
import {
  boxFromPoints,
  columnBands,
  columnLineNear,
  moveBox,
  moveColumnLine,
  moveRowLine,
  newPart,
  resizeBox,
  rowLineNear,
  setColumnField,
  toggleColumnLine,
  toggleRowLine,
  type EditorPart,
  type Side,
} from '../lib/grid-editor';

type Point = { x: number; y: number };

type Drag =
  | { kind: 'draw'; from: Point; to: Point }
  | { kind: 'move'; from: Point; start: EditorPart }
  | { kind: 'resize'; side: Side; start: EditorPart }
  | { kind: 'row'; index: number; start: EditorPart; moved: boolean }
  | { kind: 'column'; index: number; start: EditorPart; moved: boolean };

const pct = (n: number) => `${n * 100}%`;

/**
 * The grid editor on one page: draw the area, move it, resize its four sides, click the left ruler to add or
 * remove a row line and the top ruler for a column line (a click within 6 px of a line removes it), drag
 * lines, and choose each column's field.
 */
export function GridOverlay({
  page,
  document,
  part,
  columns,
  toPoint,
  pageSize,
  onChange,
}: {
  page: number;
  document: string | null;
  part: EditorPart | null;
  columns: { id: string; label: string }[];
  toPoint(clientX: number, clientY: number): Point;
  pageSize(): { width: number; height: number };
  onChange(part: EditorPart | null): void;
}) {
  const [drag, setDrag] = useState<Drag | null>(null);
  const dragRef = useRef<Drag | null>(null);
  const set = (d: Drag | null) => {
    dragRef.current = d;
    setDrag(d);
  };

  const begin = (e: ReactPointerEvent, d: Drag) => {
    e.preventDefault();
    e.stopPropagation();
    (e.currentTarget as HTMLElement).setPointerCapture?.(e.pointerId);
    set(d);
  };

  const onMove = (e: ReactPointerEvent) => {
    const d = dragRef.current;
    if (!d) return;
    const p = toPoint(e.clientX, e.clientY);
    if (d.kind === 'draw') set({ ...d, to: p });
    else if (d.kind === 'move') onChange(moveBox(d.start, p.x - d.from.x, p.y - d.from.y));
    else if (d.kind === 'resize') onChange(resizeBox(d.start, d.side, d.side === 'left' || d.side === 'right' ? p.x : p.y));
    else if (d.kind === 'row') {
      dragRef.current = { ...d, moved: true };
      onChange(moveRowLine(d.start, d.index, p.y));
    } else if (d.kind === 'column') {
      dragRef.current = { ...d, moved: true };
      onChange(moveColumnLine(d.start, d.index, p.x));
    }
  };

  const onUp = (e: ReactPointerEvent) => {
    const d = dragRef.current;
    set(null);
    if (!d) return;
    if (d.kind === 'draw') {
      const box = boxFromPoints(d.from, toPoint(e.clientX, e.clientY));
      if (box.width > 0.01 && box.height > 0.01) onChange(newPart(page, document, box));
    }
  };

  if (!part) {
    const preview = drag?.kind === 'draw' ? boxFromPoints(drag.from, drag.to) : null;
    return (
      <div
        className="grid-layer grid-layer-draw"
        data-testid={`grid-draw-${page}`}
        onPointerDown={(e) => begin(e, { kind: 'draw', from: toPoint(e.clientX, e.clientY), to: toPoint(e.clientX, e.clientY) })}
        onPointerMove={onMove}
        onPointerUp={onUp}
      >
        {preview && <div className="grid-box is-drawing" style={{ left: pct(preview.left), top: pct(preview.top), width: pct(preview.width), height: pct(preview.height) }} />}
      </div>
    );
  }

  const { box } = part;
  const bands = columnBands(part);
  const rulerClick = (e: ReactPointerEvent, axis: 'row' | 'column') => {
    const p = toPoint(e.clientX, e.clientY);
    const size = pageSize();
    if (axis === 'row') {
      const near = rowLineNear(part, p.y, size.height);
      if (near > 0) begin(e, { kind: 'row', index: near, start: part, moved: false });
      else onChange(toggleRowLine(part, p.y, size.height));
    } else {
      const near = columnLineNear(part, p.x, size.width);
      if (near > 0) begin(e, { kind: 'column', index: near, start: part, moved: false });
      else onChange(toggleColumnLine(part, p.x, size.width));
    }
  };
  const rulerUp = (e: ReactPointerEvent) => {
    const d = dragRef.current;
    set(null);
    // A click on an existing line (no drag) removes it.
    if (d && (d.kind === 'row' || d.kind === 'column') && !d.moved) {
      const p = toPoint(e.clientX, e.clientY);
      const size = pageSize();
      onChange(d.kind === 'row' ? toggleRowLine(d.start, p.y, size.height) : toggleColumnLine(d.start, p.x, size.width));
    }
  };

  return (
    <div className="grid-layer" onPointerMove={onMove} onPointerUp={onUp} data-testid={`grid-layer-${page}`}>
      <div
        className="grid-box"
        data-testid="grid-box"
        style={{ left: pct(box.left), top: pct(box.top), width: pct(box.width), height: pct(box.height) }}
      >
        <div className="grid-move" title="Drag to move the grid" onPointerDown={(e) => begin(e, { kind: 'move', from: toPoint(e.clientX, e.clientY), start: part })} />
        {part.rows.slice(1).map((r, i) => (
          <div
            key={`r${i}`}
            className="grid-line grid-line-row"
            data-testid="grid-row-line"
            style={{ top: pct((r.top_position - box.top) / box.height) }}
            onPointerDown={(e) => begin(e, { kind: 'row', index: i + 1, start: part, moved: false })}
            onPointerUp={rulerUp}
          />
        ))}
        {part.columns.slice(1).map((c, i) => (
          <div
            key={`c${i}`}
            className="grid-line grid-line-column"
            data-testid="grid-column-line"
            style={{ left: pct((c.left_position - box.left) / box.width) }}
            onPointerDown={(e) => begin(e, { kind: 'column', index: i + 1, start: part, moved: false })}
            onPointerUp={rulerUp}
          />
        ))}
        {(['left', 'right', 'top', 'bottom'] as Side[]).map((side) => (
          <div key={side} className={`grid-handle grid-handle-${side}`} data-testid={`grid-handle-${side}`} onPointerDown={(e) => begin(e, { kind: 'resize', side, start: part })} />
        ))}
      </div>
      <div
        className="grid-ruler grid-ruler-top"
        data-testid="grid-ruler-columns"
        title="Click to add a column line, click a line to remove it"
        style={{ left: pct(box.left), width: pct(box.width), top: `calc(${pct(box.top)} - 48px)` }}
        onPointerDown={(e) => rulerClick(e, 'column')}
        onPointerUp={rulerUp}
      />
      <div
        className="grid-ruler grid-ruler-left"
        data-testid="grid-ruler-rows"
        title="Click to add a row line, click a line to remove it"
        style={{ top: pct(box.top), height: pct(box.height), left: `calc(${pct(box.left)} - 22px)` }}
        onPointerDown={(e) => rulerClick(e, 'row')}
        onPointerUp={rulerUp}
      />
      {bands.map((band) => (
        <select
          key={band.index}
          className="grid-column-select"
          data-testid="grid-column-select"
          aria-label={`Field of column ${band.index + 1}`}
          value={band.schema_id ?? ''}
          style={{ left: pct(band.left), width: `calc(${pct(band.right - band.left)} - 2px)`, top: `calc(${pct(box.top)} - 24px)` }}
          onPointerDown={(e) => e.stopPropagation()}
          onChange={(e) => onChange(setColumnField(part, band.index, e.target.value || null))}
        >
          <option value="">—</option>
          {columns.map((c) => (
            <option key={c.id} value={c.id}>
              {c.label}
            </option>
          ))}
        </select>
      ))}
    </div>
  );
}
