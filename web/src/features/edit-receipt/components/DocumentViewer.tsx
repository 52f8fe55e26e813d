import { memo, useCallback, useEffect, useRef, useState, type PointerEvent as ReactPointerEvent } from 'react';
import { pointBeforeTurn, type QuarterTurn } from '../../../../../shared/page-turns';
import type { Box, PageBoxesResponse } from '../../../../../shared/schemas/content';
import { animateScrollTop, scrollParentOf, scrollTargetFor } from '../../../lib/scroll-animation';
import type { EditorPart } from '../lib/grid-editor';
import { nextZoom, TOUCH, useMedia, ZOOM_STEPS } from '../lib/media';
import { EditIcon } from './EditIcons';
import { GridOverlay } from './GridOverlay';

export interface ViewerPage {
  page: number;
  document: string;
  url: string | null;
  status: string;
  width: number | null;
  height: number | null;
}

export interface Highlight {
  page: number;
  box: Box;
  tone: 'value' | 'key' | 'table';
}

type Point = { x: number; y: number };
const pct = (n: number) => `${n * 100}%`;
const PAD = 0.002;

/** Client coordinates → fractions of the (unrotated) page, from the rotated element's bounding box. */
function pagePoint(rect: DOMRect, rotation: number, clientX: number, clientY: number): Point {
  const u = Math.min(1, Math.max(0, (clientX - rect.left) / rect.width));
  const v = Math.min(1, Math.max(0, (clientY - rect.top) / rect.height));
  return pointBeforeTurn(u, v, (rotation % 360) as QuarterTurn);
}

function PageView({
  page,
  boxes,
  rotation,
  highlights,
  pickable,
  areaMode,
  onPick,
  grid,
}: {
  page: ViewerPage;
  boxes: PageBoxesResponse | undefined;
  rotation: number;
  highlights: Highlight[];
  pickable: boolean;
  /** Select on image is on: a touch drag draws an area (else a touch drag pans and pinches, as elsewhere). */
  areaMode: boolean;
  onPick(page: number, box: Box, file: string | null): void;
  grid: { part: EditorPart | null; columns: { id: string; label: string }[]; onChange(part: EditorPart | null): void } | null;
}) {
  const outer = useRef<HTMLDivElement>(null);
  const inner = useRef<HTMLDivElement>(null);
  const [natural, setNatural] = useState<{ w: number; h: number } | null>(page.width && page.height ? { w: page.width, h: page.height } : null);
  const [lasso, setLasso] = useState<{ from: Point; to: Point } | null>(null);
  // A pen over the page (pens report hover before they touch): the page takes its drag as a mouse's, not as a pan
  const [penNear, setPenNear] = useState(false);
  const turned = rotation % 180 === 90;
  const w = natural?.w ?? 1000;
  const h = natural?.h ?? 1414;
  const failed = page.status === 'not_processed' || !page.url;

  const toPoint = useCallback((x: number, y: number) => pagePoint(outer.current!.getBoundingClientRect(), rotation, x, y), [rotation]);
  const pageSize = useCallback(() => ({ width: inner.current?.offsetWidth ?? 1, height: inner.current?.offsetHeight ?? 1 }), []);

  const file = boxes?.file ?? page.document;
  const lassoBox = lasso
    ? {
        left: Math.min(lasso.from.x, lasso.to.x),
        top: Math.min(lasso.from.y, lasso.to.y),
        width: Math.abs(lasso.to.x - lasso.from.x),
        height: Math.abs(lasso.to.y - lasso.from.y),
      }
    : null;

  const down = (e: ReactPointerEvent) => {
    if (!pickable || grid || e.button !== 0) return;
    // A finger draws an area only in the Select on image mode: otherwise its drag scrolls the page (finding: a
    // swipe to scroll used to read an empty area into the focused field)
    const touch = e.pointerType === 'touch';
    if (touch && !areaMode) return;
    if (!touch && (e.target as HTMLElement).closest('.ocr-box')) return;
    (e.currentTarget as HTMLElement).setPointerCapture?.(e.pointerId);
    const p = toPoint(e.clientX, e.clientY);
    setLasso({ from: p, to: p });
  };
  const move = (e: ReactPointerEvent) => {
    if (lasso) setLasso({ ...lasso, to: toPoint(e.clientX, e.clientY) });
  };
  const up = () => {
    if (lassoBox && lassoBox.width > 0.005 && lassoBox.height > 0.004) onPick(page.page, lassoBox, file);
    setLasso(null);
  };
  // (the browser took the gesture over, as a scroll or a pinch: no area)
  const cancel = () => setLasso(null);
  const pen = (near: boolean) => (e: ReactPointerEvent) => {
    if (e.pointerType === 'pen') setPenNear(near);
  };
  const drawing = pickable && !grid && (areaMode || penNear);

  return (
    <figure className="er-page" data-testid={`page-${page.page}`}>
      <div
        ref={outer}
        className="er-page-frame"
        style={{ aspectRatio: turned ? `${h} / ${w}` : `${w} / ${h}` }}
      >
        <div
          ref={inner}
          className={`er-page-inner ${pickable && !grid ? 'is-pickable' : ''} ${drawing ? 'is-drawing' : ''} ${grid ? 'is-grid' : ''}`}
          style={{
            width: turned ? `${(w / h) * 100}%` : '100%',
            aspectRatio: `${w} / ${h}`,
            transform: `translate(-50%, -50%) rotate(${rotation % 360}deg)`,
          }}
          onPointerDown={down}
          onPointerMove={move}
          onPointerUp={up}
          onPointerCancel={cancel}
          onPointerEnter={pen(true)}
          onPointerLeave={pen(false)}
        >
          {failed ? (
            <div className="er-page-failed" data-testid="page-not-processed">
              The page was not processed
            </div>
          ) : (
            <img
              src={page.url!}
              alt={`Page ${page.page}`}
              draggable={false}
              onLoad={(e) => {
                const img = e.currentTarget;
                if (!page.width && img.naturalWidth) setNatural({ w: img.naturalWidth, h: img.naturalHeight });
              }}
            />
          )}
          {!failed &&
            (boxes?.words ?? []).map((b) => (
              <button
                type="button"
                key={b.id}
                className="ocr-box"
                // (the page's words are picked with a pointer; a screen reader reads the fields, not a hundred boxes)
                aria-hidden="true"
                data-testid="ocr-box"
                data-text={b.text}
                title={b.text}
                tabIndex={-1}
                disabled={!pickable || Boolean(grid)}
                style={{ left: pct(b.left), top: pct(b.top), width: pct(b.width), height: pct(b.height) }}
                onClick={() => onPick(page.page, { left: b.left - PAD, top: b.top - PAD, width: b.width + PAD * 2, height: b.height + PAD * 2 }, file)}
              />
            ))}
          {/* (a page without its image has nothing to point at: an office file's places are of its text's layout) */}
          {!failed &&
            highlights.map((hl, i) => (
              <div key={i} className={`er-highlight er-highlight-${hl.tone}`} data-testid="field-highlight" style={{ left: pct(hl.box.left), top: pct(hl.box.top), width: pct(hl.box.width), height: pct(hl.box.height) }} />
            ))}
          {lassoBox && <div className="er-lasso" style={{ left: pct(lassoBox.left), top: pct(lassoBox.top), width: pct(lassoBox.width), height: pct(lassoBox.height) }} />}
          {grid && <GridOverlay page={page.page} document={page.document} part={grid.part} columns={grid.columns} toPoint={toPoint} pageSize={pageSize} onChange={grid.onChange} />}
        </div>
      </div>
      <figcaption className="er-page-no">
        Page {page.page}
      </figcaption>
    </figure>
  );
}

/**
 * The document's pages with their word boxes; a click on a box (or a drawn area) fills the focused field. Memoized:
 * typing in a field (the screen renders on every key) does not render the pages' hundreds of word boxes again.
 */
export const DocumentViewer = memo(function DocumentViewer({
  pages,
  boxes,
  rotation,
  highlights,
  pickable,
  onPick,
  grid,
}: {
  pages: ViewerPage[];
  boxes: PageBoxesResponse[];
  rotation: number;
  highlights: Highlight[];
  pickable: boolean;
  onPick(page: number, box: Box, file: string | null): void;
  grid: { parts: EditorPart[]; columns: { id: string; label: string }[]; onChange(parts: EditorPart[]): void } | null;
}) {
  const viewer = useRef<HTMLDivElement>(null);
  // Touch screens: Select on image turns a finger's drag on the page into an area to read (a mouse or a pen draws
  // one at any time); off, the finger scrolls and pinches the page as anywhere else.
  const touchScreen = useMedia(TOUCH);
  const [areaMode, setAreaMode] = useState(false);
  const [zoom, setZoom] = useState<number>(ZOOM_STEPS[0]);
  // The focused field's place on the page is brought into view (an animated scroll) when it is out of sight.
  const focus = highlights[0];
  const focusKey = focus ? [focus.page, focus.box.left, focus.box.top, focus.box.width, focus.box.height].join(':') : '';
  useEffect(() => {
    const root = viewer.current;
    const target = focusKey ? root?.querySelector<HTMLElement>('[data-testid="field-highlight"]') : null;
    const container = root ? scrollParentOf(root) : null;
    if (!target || !container) return;
    const view = container.getBoundingClientRect();
    const box = target.getBoundingClientRect();
    const to = scrollTargetFor({ top: view.top, height: container.clientHeight, scrollTop: container.scrollTop, scrollHeight: container.scrollHeight }, box);
    return to === null ? undefined : animateScrollTop(container, to);
  }, [focusKey]);

  if (!pages.length) return <div className="er-viewer-empty muted">No pages yet</div>;
  const zoomed = zoom !== ZOOM_STEPS[0];
  return (
    <>
      {!grid && (
        <div className="er-viewer-tools">
          <div className="er-viewer-tools-in" role="toolbar" aria-label="Page view" data-testid="viewer-tools">
            {touchScreen && (
              <button
                type="button"
                className={`er-viewer-btn er-area-toggle ${areaMode ? 'is-on' : ''}`}
                aria-pressed={areaMode}
                disabled={!pickable}
                title="Select on image"
                onClick={() => setAreaMode((on) => !on)}
                data-testid="area-mode"
              >
                <EditIcon name="area" />
                <span>Select on image</span>
              </button>
            )}
            <button type="button" className="er-viewer-btn" aria-label="Zoom out" title="Zoom out" disabled={!zoomed} onClick={() => setZoom((z) => nextZoom(z, -1))} data-testid="zoom-out">
              <EditIcon name="zoomOut" />
            </button>
            <span className="er-zoom-level" aria-live="polite">{Math.round(zoom * 100)}%</span>
            <button type="button" className="er-viewer-btn" aria-label="Zoom in" title="Zoom in" disabled={zoom === ZOOM_STEPS[ZOOM_STEPS.length - 1]} onClick={() => setZoom((z) => nextZoom(z, 1))} data-testid="zoom-in">
              <EditIcon name="zoomIn" />
            </button>
          </div>
        </div>
      )}
      <div className="er-viewer" data-testid="document-viewer" ref={viewer} style={zoomed ? { width: `${zoom * 100}%`, maxWidth: `${900 * zoom}px` } : undefined}>
        {pages.map((p) => (
          <PageView
            key={p.page}
            page={p}
            boxes={boxes.find((b) => b.page === p.page)}
            rotation={rotation}
            highlights={highlights.filter((h) => h.page === p.page)}
            pickable={pickable}
            areaMode={areaMode && touchScreen}
            onPick={onPick}
            grid={
              grid
                ? {
                    part: grid.parts.find((g) => g.page === p.page) ?? null,
                    columns: grid.columns,
                    onChange: (part) => grid.onChange([...grid.parts.filter((g) => g.page !== p.page), ...(part ? [part] : [])].sort((a, b) => a.page - b.page)),
                  }
                : null
            }
          />
        ))}
      </div>
    </>
  );
});
