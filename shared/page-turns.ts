/**
 * Quarter turns of a page. The recogniser reads a sideways page after turning it, and the edit screen shows a
 * page turned by the user; both map points of the turned page back to the page as stored.
 */

/** A clockwise quarter turn, in degrees. */
export type QuarterTurn = 0 | 90 | 180 | 270;

/**
 * A point of a page shown or read turned `turn` degrees clockwise, back on the page as stored (both in fractions
 * of their page).
 */
export function pointBeforeTurn(x: number, y: number, turn: QuarterTurn): { x: number; y: number } {
  switch (turn) {
    case 90:
      return { x: y, y: 1 - x };
    case 180:
      return { x: 1 - x, y: 1 - y };
    case 270:
      return { x: 1 - y, y: x };
    default:
      return { x, y };
  }
}
