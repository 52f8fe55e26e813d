/**
 * A copy of a SROIE-style folder with every page turned by a few degrees (alternately clockwise and anticlockwise,
 * on a white canvas grown to hold it) or scaled, to measure how the reading holds on receipts photographed askew or
 * small, and as a phone photographs them:
 *   npx tsx scripts/bench/turned-copy.ts <folder> <out> [--degrees D] [--scale S] [--surface M] [--shadow S] [--keystone K] [--blur B] [--jpeg Q] [--fade F]
 * - `--fade F`: the print has faded as thermal paper's does with time and light: every pixel moves F of the way to
 *   white (ink at 1 − F of its darkness, the paper as it was), before any other step;
 * - `--surface M`: the page lies on a dark surface (#3c3228) that shows around it, M of the (scaled) page's width on
 *   each side (and the turn's corners are that surface too, not white);
 * - `--shadow S`: the light falls off across the frame, from full on one side to 1 − S of it on the other (the
 *   side alternating from page to page), as a hand or a phone shades a receipt;
 * - `--keystone K`: the page photographed at an angle: its frame seen in perspective, the far edge K of the near one
 *   shorter (pages in turn tilted top, right, bottom and left away from the camera), as a phone held over a receipt
 *   but not parallel to it sees it;
 * - `--blur B`: the photo out of focus or shaken: a Gaussian blur of B px (sigma) over the frame;
 * - `--jpeg Q`: the copy's JPEG quality (default 95). Each step before the last hands the page on as JPEG at sharp's
 *   default quality (80), as the turn and the scale always have: a photo-like copy is compressed more than once.
 * and then `npm run bench:recognition -- <out>` (from the image only: `keys/` is linked to the folder's, and so is
 * `ocr/`, whose boxes are the straight page's).
 */
import { existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import sharp from 'sharp';
import { option } from './recognition/sroie';

/** A light level falling linearly across the frame, left to right (or right to left), from 255 to 255 × (1 − S). */
function lightFalloff(width: number, height: number, shadow: number, fromRight: boolean): Buffer {
  const row = Buffer.alloc(width * 3);
  for (let x = 0; x < width; x++) {
    const t = width > 1 ? x / (width - 1) : 0;
    row.fill(Math.round(255 * (1 - shadow * (fromRight ? 1 - t : t))), x * 3, x * 3 + 3);
  }
  const out = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) row.copy(out, y * width * 3);
  return out;
}

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
async function inPerspective(jpeg: Buffer, keystone: number, side: number, background: [number, number, number]): Promise<Buffer> {
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

async function main() {
  const argv = process.argv.slice(2);
  const [folder, out] = argv.filter((a, i) => !a.startsWith('--') && !argv[i - 1]?.startsWith('--'));
  const degrees = Number(option(argv, '--degrees') ?? 0);
  const scale = Number(option(argv, '--scale') ?? 1);
  const surface = Number(option(argv, '--surface') ?? 0);
  const shadow = Number(option(argv, '--shadow') ?? 0);
  const quality = Number(option(argv, '--jpeg') ?? 95);
  const fade = Number(option(argv, '--fade') ?? 0);
  const keystone = Number(option(argv, '--keystone') ?? 0);
  const blur = Number(option(argv, '--blur') ?? 0);
  const valid = Number.isFinite(degrees) && scale > 0 && surface >= 0 && shadow >= 0 && shadow < 1 && quality >= 1 && quality <= 100 && fade >= 0 && fade < 1 && keystone >= 0 && keystone < 0.5 && blur >= 0;
  if (!folder || !out || !valid || (degrees === 0 && scale === 1 && surface === 0 && shadow === 0 && quality === 95 && fade === 0 && keystone === 0 && blur === 0)) {
    throw new Error('Usage: turned-copy.ts <folder> <out> [--degrees D] [--scale S] [--surface M] [--shadow S] [--keystone K] [--blur B] [--jpeg Q] [--fade F] (at least one)');
  }
  const background = surface > 0 ? '#3c3228' : '#ffffff';
  mkdirSync(join(out, 'images'), { recursive: true });
  for (const sub of ['keys', 'ocr']) {
    if (existsSync(join(folder, sub)) && !existsSync(join(out, sub))) symlinkSync(resolve(folder, sub), join(out, sub));
  }
  const files = readdirSync(join(folder, 'images'))
    .filter((f) => /\.(jpe?g|png|tiff?)$/i.test(f))
    .sort();
  for (const [i, f] of files.entries()) {
    let img = sharp(join(folder, 'images', f), { failOn: 'none' }).rotate();
    // The upright page's size (a pipeline's metadata() names its input's, before any step of it).
    const { autoOrient } = await img.metadata();
    let pageWidth = autoOrient.width;
    if (fade > 0) img = sharp(await img.toBuffer()).linear(1 - fade, 255 * fade);
    if (scale !== 1) {
      pageWidth = Math.max(1, Math.round(autoOrient.width * scale));
      img = sharp(await img.toBuffer()).resize(pageWidth, Math.max(1, Math.round(autoOrient.height * scale)));
    }
    if (degrees) img = sharp(await img.toBuffer()).rotate(i % 2 ? -degrees : degrees, { background });
    if (surface > 0) {
      const m = Math.round(pageWidth * surface);
      img = sharp(await img.toBuffer()).extend({ top: m, bottom: m, left: m, right: m, background });
    }
    if (keystone > 0) {
      const rgb: [number, number, number] = surface > 0 ? [0x3c, 0x32, 0x28] : [255, 255, 255];
      img = sharp(await inPerspective(await img.flatten({ background }).toBuffer(), keystone, i % 4, rgb));
    }
    if (blur > 0) img = sharp(await img.flatten({ background }).toBuffer()).blur(Math.max(0.3, blur));
    if (shadow > 0) {
      const page = await img.flatten({ background }).toBuffer();
      const { width, height } = await sharp(page).metadata();
      img = sharp(page).composite([{ input: lightFalloff(width!, height!, shadow, i % 2 === 1), raw: { width: width!, height: height!, channels: 3 }, blend: 'multiply' }]);
    }
    writeFileSync(join(out, 'images', f.replace(/\.[^.]+$/, '.jpg')), await img.flatten({ background }).jpeg({ quality }).toBuffer());
  }
  console.log(`${files.length} pages written to ${out}/images (turned ${degrees}°, alternately both ways; scaled ${scale}; surface ${surface}; shadow ${shadow}; keystone ${keystone}; blur ${blur}; faded ${fade}; JPEG ${quality})`);
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
