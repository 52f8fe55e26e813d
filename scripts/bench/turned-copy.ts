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
import { inPerspective } from './recognition/perspective';
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
