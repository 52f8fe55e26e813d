/**
 * The company's items offered under a line item's description (the Lines pop-up): which cell's typing is searched,
 * and where the list floats so that the pop-up's scrolling grid does not cut it off.
 */
import type { SchemaField } from '../../../../../shared/schemas/content';

/** A field of a column with the schema's `items` setting (a line item's description) offers the company's items. */
export const offersItems = (field: { settings: SchemaField['settings'] }): boolean => field.settings.items === true;

/**
 * The cell whose typed text is searched among the company's items now, with that text: the focused cell, typed in
 * since it was focused, of a column that offers items, on a document of a company that is not read-only, holding
 * something other than the item just chosen in it. Null otherwise (nothing is offered, nothing is read).
 */
export function itemSearch(s: {
  focusedId: string | null;
  typedField: string | null;
  readOnly: boolean;
  companyId: string;
  settingsOf(id: string): SchemaField['settings'] | undefined;
  valueOf(id: string): string;
  chosen: { cell: string; name: string } | null;
}): { cell: string; text: string } | null {
  const cell = s.focusedId;
  if (!cell || s.typedField !== cell || s.readOnly || s.companyId === 'NONE') return null;
  const settings = s.settingsOf(cell);
  if (!settings || !offersItems({ settings })) return null;
  const text = s.valueOf(cell);
  if (text.trim() === '' || (s.chosen?.cell === cell && s.chosen.name === text)) return null;
  return { cell, text };
}

export interface Box {
  top: number;
  bottom: number;
  left: number;
  right: number;
  width: number;
}

/** Where a floating list goes: `top` (under the input) or `bottom` (above it, from the window's bottom), in px. */
export interface FloatPlace {
  top?: number;
  bottom?: number;
  left: number;
  width: number;
  maxHeight: number;
  /** The input is scrolled out of its grid's view: no list hanging in the air. */
  hidden: boolean;
}

/** The list's height at most (as the name field's list), its least width, and the room kept to the window's edges. */
export const FLOAT = { height: 222, minWidth: 240, margin: 8, gap: 2 } as const;

/**
 * A list under (or, short of room there and with more above, over) an input inside a scrolling area (`clip`),
 * fixed to the window: as wide as the input and at least FLOAT.minWidth, kept inside the window.
 */
export function floatingListPlace(input: Box, clip: Box | null, view: { width: number; height: number }): FloatPlace {
  const hidden = clip !== null && (input.bottom <= clip.top || input.top >= clip.bottom || input.right <= clip.left || input.left >= clip.right);
  const width = Math.max(0, Math.min(Math.max(input.width, FLOAT.minWidth), view.width - 2 * FLOAT.margin));
  const left = Math.max(FLOAT.margin, Math.min(input.left, view.width - FLOAT.margin - width));
  const below = view.height - input.bottom - FLOAT.gap - FLOAT.margin;
  const above = input.top - FLOAT.gap - FLOAT.margin;
  if (below >= FLOAT.height || below >= above) return { top: input.bottom + FLOAT.gap, left, width, maxHeight: Math.max(0, Math.min(FLOAT.height, below)), hidden };
  return { bottom: view.height - input.top + FLOAT.gap, left, width, maxHeight: Math.min(FLOAT.height, above), hidden };
}
