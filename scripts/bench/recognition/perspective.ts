/** A page seen in perspective, for the benchmark's copies of receipts as a phone held at an angle photographs them. */
import sharp from 'sharp';

/** The homography (3 × 3, row-major, h33 = 1) that takes the four points `from` to the four points `to`. */
export function homography(from: [number, number][], to: [number, number][]): number[] {
  // Eight equations in h11 … h32: u = (h11 x + h12 y + h13) / (h31 x + h32 y + 1), v likewise.
  const a: number[][] = [];
  for (let k = 0; k < 4; k++) {
    const [x, y] = from[k]!;
    const [u, v] = to[k]!;
    a.push([x, y, 1, 0, 0, 0, -u * x, -u * y, u]);
    a.push([0, 0, 0, x, y, 1, -v * x, -v * y, v]);
  }
  for (let c = 0; c < 8; c++) {
    let pivot = c;
    for (let r = c + 1; r < 8; r++) if (Math.abs(a[r]![c]!) > Math.abs(a[pivot]![c]!)) pivot = r;
    [a[c], a[pivot]] = [a[pivot]!, a[c]!];
    for (let r = 0; r < 8; r++) {
      if (r === c) continue;
      const f = a[r]![c]! / a[c]![c]!;
      for (let k = c; k < 9; k++) a[r]![k]! -= f * a[c]![k]!;
    }
  }
  return [...a.map((row, c) => row[8]! / row[c]!), 1];
}

/**
 * The frame seen in perspective: the edge `side` tilted away (0 top, 1 right, 2 bottom, 3 left) appears `keystone` of
 * its length shorter, centred; every output pixel is sampled (bilinear) where the homography puts it in the frame,
 * `background` outside it.
 */
export async function inPerspective(jpeg: Buffer, keystone: number, side: number, background: [number, number, number]): Promise<Buffer> {
  const { data, info } = await sharp(jpeg).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const { width: w, height: h, channels } = info;
  const dx = (w * keystone) / 2;
  const dy = (h * keystone) / 2;
  const corners: [number, number][] = [[0, 0], [w, 0], [w, h], [0, h]];
  const seen: [number, number][] = [
    [side === 0 ? dx : 0, side === 3 ? dy : 0],
    [side === 0 ? w - dx : w, side === 1 ? dy : 0],
    [side === 2 ? w - dx : w, side === 1 ? h - dy : h],
    [side === 2 ? dx : 0, side === 3 ? h - dy : h],
  ];
  // Output → frame, so that every output pixel is sampled once.
  const m = homography(seen, corners);
  const out = Buffer.alloc(w * h * 3);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const d = m[6]! * x + m[7]! * y + 1;
      const sx = (m[0]! * x + m[1]! * y + m[2]!) / d - 0.5;
      const sy = (m[3]! * x + m[4]! * y + m[5]!) / d - 0.5;
      const o = (y * w + x) * 3;
      if (sx < 0 || sy < 0 || sx > w - 1 || sy > h - 1) {
        out[o] = background[0];
        out[o + 1] = background[1];
        out[o + 2] = background[2];
        continue;
      }
      const x0 = Math.floor(sx);
      const y0 = Math.floor(sy);
      const x1 = Math.min(w - 1, x0 + 1);
      const y1 = Math.min(h - 1, y0 + 1);
      const fx = sx - x0;
      const fy = sy - y0;
      const a = (y0 * w + x0) * channels;
      const b = (y0 * w + x1) * channels;
      const c = (y1 * w + x0) * channels;
      const d2 = (y1 * w + x1) * channels;
      for (let k = 0; k < 3; k++) {
        out[o + k] = Math.round((data[a + k]! * (1 - fx) + data[b + k]! * fx) * (1 - fy) + (data[c + k]! * (1 - fx) + data[d2 + k]! * fx) * fy);
      }
    }
  }
  return sharp(out, { raw: { width: w, height: h, channels: 3 } }).jpeg().toBuffer();
}
