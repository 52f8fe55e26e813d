import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { homography, inPerspective } from '../../../scripts/bench/recognition/perspective';

const apply = (m: number[], x: number, y: number) => {
  const d = m[6]! * x + m[7]! * y + 1;
  return [(m[0]! * x + m[1]! * y + m[2]!) / d, (m[3]! * x + m[4]! * y + m[5]!) / d];
};

describe('the benchmark page seen in perspective', () => {
  it('takes each of four points to its image', () => {
    const from: [number, number][] = [[0, 0], [100, 0], [100, 200], [0, 200]];
    const to: [number, number][] = [[10, 0], [90, 0], [100, 200], [0, 200]];
    const m = homography(from, to);
    from.forEach(([x, y], k) => {
      const [u, v] = apply(m, x, y);
      expect(u).toBeCloseTo(to[k]![0], 6);
      expect(v).toBeCloseTo(to[k]![1], 6);
    });
    // A straight line stays straight: the middle of the left edge lands on the left edge's image, from (10, 0) to
    // (0, 200), nearer its far end (the far half looks shorter).
    const [u, v] = apply(m, 0, 100);
    expect(u).toBeCloseTo(10 * (1 - v / 200), 6);
    expect(v).toBeLessThan(100);
  });

  it('shortens the edge tilted away and fills the corners it leaves with the background', async () => {
    const w = 80;
    const h = 40;
    const black = await sharp({ create: { width: w, height: h, channels: 3, background: '#000000' } }).jpeg().toBuffer();
    const seen = await inPerspective(black, 0.5, 0, [255, 255, 255]);
    const { data } = await sharp(seen).raw().toBuffer({ resolveWithObject: true });
    const at = (x: number, y: number) => data[(y * w + x) * 3]!;
    // Top tilted away by a half: its corners are background, its middle and the bottom edge the page.
    expect(at(1, 1)).toBeGreaterThan(200);
    expect(at(w - 2, 1)).toBeGreaterThan(200);
    expect(at(w / 2, 1)).toBeLessThan(60);
    expect(at(3, h - 3)).toBeLessThan(60);
  });
});
