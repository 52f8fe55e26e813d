import { describe, expect, it } from 'vitest';
import { boxesOnPage, levelledMap, type ProbabilityMap } from '../../../lambdas/adapters/local-recogniser/text-detection';
import type { Levelling } from '../../../lambdas/core/recognition/geometry';

const PAGE = { width: 400, height: 300 };
const DEGREES = 4;

/** A map at half the page's size holding one text line (6 px each side of its middle), falling to the right by `degrees`. */
function slantingLine(degrees: number, centre = { x: PAGE.width / 2, y: PAGE.height / 2 }, halfLength = 120): ProbabilityMap {
  const [width, height] = [PAGE.width / 2, PAGE.height / 2];
  const prob = new Float32Array(width * height);
  const r = (degrees * Math.PI) / 180;
  for (let j = 0; j < height; j++) {
    for (let i = 0; i < width; i++) {
      const [dx, dy] = [(i + 0.5) * 2 - centre.x, (j + 0.5) * 2 - centre.y];
      const along = dx * Math.cos(r) + dy * Math.sin(r);
      const across = -dx * Math.sin(r) + dy * Math.cos(r);
      if (Math.abs(along) < halfLength && Math.abs(across) < 6) prob[j * width + i] = 0.9;
    }
  }
  return { prob, width, height };
}

/** The levelling `detectLevel` makes of a page whose print slants by `degrees`: turned back by as much. */
function levelling(degrees: number): Levelling {
  const r = (degrees * Math.PI) / 180;
  const [c, s] = [Math.abs(Math.cos(r)), Math.abs(Math.sin(r))];
  return {
    radians: -r,
    ...PAGE,
    readWidth: Math.round(PAGE.width * c + PAGE.height * s),
    readHeight: Math.round(PAGE.width * s + PAGE.height * c),
  };
}

const toDegrees = (radians: number) => (radians * 180) / Math.PI;

describe('a probability map turned level with its page', () => {
  it('holds the slanting line level, where the levelled page shows it', () => {
    const map = slantingLine(DEGREES);
    const [slanting] = boxesOnPage(map, PAGE.width, PAGE.height);
    expect(toDegrees(slanting!.angle!)).toBeCloseTo(DEGREES, 0);

    const level = levelling(DEGREES);
    const turned = levelledMap(map, level);
    // The map's own scale: half the levelled page's pixels.
    expect(turned.width).toBe(Math.round(level.readWidth / 2));
    expect(turned.height).toBe(Math.round(level.readHeight / 2));
    const boxes = boxesOnPage(turned, level.readWidth, level.readHeight);
    expect(boxes).toHaveLength(1);
    const [line] = boxes;
    // Level (a turn the wrong way would double the slant), and narrower in height than the slanting line's box.
    expect(Math.abs(toDegrees(line!.angle!))).toBeLessThan(0.5);
    expect(line!.y1 - line!.y0).toBeLessThan(slanting!.y1 - slanting!.y0 - 10);
    // The page's centre stays the levelled canvas's centre.
    expect((line!.x0 + line!.x1) / 2).toBeCloseTo(level.readWidth / 2, -1);
    expect((line!.y0 + line!.y1) / 2).toBeCloseTo(level.readHeight / 2, -1);
  });

  it('moves a line off the centre where the page turns it', () => {
    const centre = { x: 120, y: 80 };
    const level = levelling(DEGREES);
    const [line] = boxesOnPage(levelledMap(slantingLine(DEGREES, centre, 60), level), level.readWidth, level.readHeight);
    // The line's centre turned anticlockwise by DEGREES about the page's centre, onto the larger canvas.
    const r = (-DEGREES * Math.PI) / 180;
    const [dx, dy] = [centre.x - PAGE.width / 2, centre.y - PAGE.height / 2];
    const x = dx * Math.cos(r) - dy * Math.sin(r) + level.readWidth / 2;
    const y = dx * Math.sin(r) + dy * Math.cos(r) + level.readHeight / 2;
    expect(Math.abs((line!.x0 + line!.x1) / 2 - x)).toBeLessThan(1.5);
    expect(Math.abs((line!.y0 + line!.y1) / 2 - y)).toBeLessThan(1.5);
  });

  it('is empty off the page', () => {
    const level = levelling(DEGREES);
    const turned = levelledMap({ prob: new Float32Array(200 * 150).fill(0.9), width: 200, height: 150 }, level);
    // The canvas's corners lie off the turned page; its centre on it.
    expect(turned.prob[0]).toBe(0);
    expect(turned.prob[turned.prob.length - 1]).toBe(0);
    expect(turned.prob[Math.floor(turned.height / 2) * turned.width + Math.floor(turned.width / 2)]).toBeCloseTo(0.9, 5);
  });
});
