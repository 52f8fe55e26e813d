/**
 * The keyboard focus is never left under a sticky part of the screen (WCAG 2.2, 2.4.11 Focus Not Obscured). The
 * browser scrolls a control that takes the focus into its scrolling area, but not out from under what stays in
 * sight over that area: the page's header, a list's or grid's header row, the Lines pop-up's row tools, the edit
 * screen's action bar on a narrow window. Shift+Tab up a list left the focused row under the header.
 *
 * One listener for the whole app: in the frame after a control has taken the focus (the browser has scrolled it into
 * its area by then), points at its edges are looked at; where a sticky box that does not hold the control is drawn
 * over one, the nearest scrolling ancestor of the control that also holds that box (the one it sticks in) scrolls
 * by the overlap, sideways never past the control's own start.
 */

type Axis = 'x' | 'y';

/** The CSS offsets a sticky box sticks by on an axis: `top`/`bottom`, `left`/`right`. */
const SIDES = { y: ['top', 'bottom'], x: ['left', 'right'] } as const;

/** Whether a sticky box sticks along `axis` (a header sticks by `top`, row tools by `right`). */
function sticksAlong(el: Element, axis: Axis): boolean {
  const style = getComputedStyle(el);
  return SIDES[axis].some((side) => style[side] !== 'auto');
}

/**
 * The sticky box along `axis` drawn over the point, other than one holding `target`; null when the point shows the
 * target (or something that does not stay in sight).
 */
function stickyOver(target: HTMLElement, x: number, y: number, axis: Axis): HTMLElement | null {
  const hit = document.elementFromPoint(x, y);
  if (!hit || target.contains(hit) || hit.contains(target)) return null;
  for (let el: Element | null = hit; el && el !== document.documentElement; el = el.parentElement) {
    if (getComputedStyle(el).position !== 'sticky' || !sticksAlong(el, axis)) continue;
    return el.contains(target) ? null : (el as HTMLElement);
  }
  return null;
}

/**
 * Whether a sticky box is at the start of the axis (a header, a left column: the control moves after it), by its CSS
 * offset; by where it is drawn when it sticks by both.
 */
function atStart(el: Element, axis: Axis, drawnBefore: boolean): boolean {
  const style = getComputedStyle(el);
  const [start, end] = SIDES[axis];
  const byStart = style[start] !== 'auto';
  return byStart === (style[end] !== 'auto') ? drawnBefore : byStart;
}

function scrolls(el: Element, axis: Axis): boolean {
  const style = getComputedStyle(el);
  const overflow = axis === 'y' ? style.overflowY : style.overflowX;
  const room = axis === 'y' ? el.scrollHeight - el.clientHeight : el.scrollWidth - el.clientWidth;
  return room > 0 && (overflow === 'auto' || overflow === 'scroll');
}

/** The scrolling ancestor of `target` that `cover` sticks in: the nearest one that holds the cover, else the page. */
function scrollerOf(target: HTMLElement, cover: HTMLElement, axis: Axis): Element {
  for (let el = target.parentElement; el && el !== document.body && el !== document.documentElement; el = el.parentElement) {
    if (scrolls(el, axis) && el.contains(cover)) return el;
  }
  return document.scrollingElement ?? document.documentElement;
}

/** Scrolls `target` out from under the sticky boxes over its top, bottom, left and right edges. */
export function uncoverFocused(focused: HTMLElement): void {
  // A control drawn by another element (a checkbox hidden under its styled box) is seen as its label or parent.
  const tiny = (el: HTMLElement) => {
    const r = el.getBoundingClientRect();
    return r.width < 4 || r.height < 4;
  };
  const target = tiny(focused) ? (focused.closest('label') ?? focused.parentElement ?? focused) : focused;
  if (tiny(target)) return;
  // The points looked at lie just inside the control's edges and on its focus ring just outside them, so the ring
  // stays in sight too; a move leaves the ring's width of room. Bars may lie one over another (the edit screen's
  // action bar over the page's header): each move is looked at again, a few times at most.
  const ring = 3;
  const inside = (v: number, max: number) => Math.min(Math.max(v, 0.5), max - 0.5);
  // Two points at an edge: just inside the control, and on its ring just outside (one bar may lie over the other).
  const edge = (along: number, at: number, out: -1 | 1, max: number): [number, number][] => [
    [along, inside(at - out * ring, max)],
    [along, inside(at + out * ring, max)],
  ];
  const first = (points: [number, number][], axis: Axis) => points.map(([x, y]) => stickyOver(target, x, y, axis)).find((c): c is HTMLElement => !!c);
  for (let tries = 0; tries < 3; tries++) {
    const box = target.getBoundingClientRect();
    const [w, h] = [window.innerWidth, window.innerHeight];
    const xs = [box.left + ring, (box.left + box.right) / 2, box.right - ring].map((x) => inside(x, w));
    const cover = first([...xs.flatMap((x) => edge(x, box.top, -1, h)), ...xs.flatMap((x) => edge(x, box.bottom, 1, h))], 'y');
    if (!cover) break;
    const bar = cover.getBoundingClientRect();
    // A bar that sticks at the top is a header (the control moves down below it), one at the bottom a footer.
    const by = atStart(cover, 'y', bar.top + bar.bottom <= box.top + box.bottom) ? box.top - bar.bottom - ring : box.bottom - bar.top + ring;
    if (Math.abs(by) < 0.5) break;
    scrollerOf(target, cover, 'y').scrollTop += by;
  }
  for (let tries = 0; tries < 3; tries++) {
    const box = target.getBoundingClientRect();
    const [w, h] = [window.innerWidth, window.innerHeight];
    const ys = [box.top + ring, (box.top + box.bottom) / 2, box.bottom - ring].map((y) => inside(y, h));
    const across = (y: number, at: number, out: -1 | 1) => edge(y, at, out, w).map(([a, b]): [number, number] => [b, a]);
    const cover = first([...ys.flatMap((y) => across(y, box.right, 1)), ...ys.flatMap((y) => across(y, box.left, -1))], 'x');
    if (!cover) break;
    const bar = cover.getBoundingClientRect();
    const scroller = scrollerOf(target, cover, 'x');
    const start = scroller === document.scrollingElement ? 0 : scroller.getBoundingClientRect().left;
    // Row tools that stick at the right: the control moves left, never past the area's start; a column at the left: right.
    const by = atStart(cover, 'x', bar.left + bar.right <= box.left + box.right) ? box.left - bar.right - ring : Math.min(box.right - bar.left + ring, box.left - start);
    if (Math.abs(by) < 0.5) break;
    scroller.scrollLeft += by;
  }
}

/** Keeps every control that takes the keyboard focus out from under the sticky parts of the screen. */
export function keepFocusInSight(doc: Document = document): () => void {
  const onFocusIn = (e: FocusEvent) => {
    const target = e.target;
    if (!(target instanceof HTMLElement) || !target.matches(':focus-visible')) return;
    // Looked at in the next frame, once the browser's own scroll and the screen's focus handlers have done their part.
    requestAnimationFrame(() => {
      if (doc.activeElement === target) uncoverFocused(target);
    });
  };
  // On the way down (capture): a control's own handler that stops the event does not keep it from here.
  doc.addEventListener('focusin', onFocusIn, true);
  return () => doc.removeEventListener('focusin', onFocusIn, true);
}
