/**
 * A copy of a SROIE-style folder with every page turned by a few degrees (alternately clockwise and anticlockwise,
 * on a white canvas grown to hold it) or scaled, to measure how the reading holds on receipts photographed askew or
 * small:
 *   npx tsx scripts/bench/turned-copy.ts <folder> <out> [--degrees D] [--scale S]
 * and then `npm run bench:recognition -- <out>` (from the image only: `keys/` is linked to the folder's, and so is
 * `ocr/`, whose boxes are the straight page's).
 */
import { existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import sharp from 'sharp';
import { option } from './recognition/sroie';

async function main() {
  const argv = process.argv.slice(2);
  const [folder, out] = argv.filter((a, i) => !a.startsWith('--') && !argv[i - 1]?.startsWith('--'));
  const degrees = Number(option(argv, '--degrees') ?? 0);
  const scale = Number(option(argv, '--scale') ?? 1);
  if (!folder || !out || !Number.isFinite(degrees) || !(scale > 0) || (degrees === 0 && scale === 1)) {
    throw new Error('Usage: turned-copy.ts <folder> <out> [--degrees D] [--scale S] (a turn, a scale or both)');
  }
  mkdirSync(join(out, 'images'), { recursive: true });
  for (const sub of ['keys', 'ocr']) {
    if (existsSync(join(folder, sub)) && !existsSync(join(out, sub))) symlinkSync(resolve(folder, sub), join(out, sub));
  }
  const files = readdirSync(join(folder, 'images'))
    .filter((f) => /\.(jpe?g|png|tiff?)$/i.test(f))
    .sort();
  for (const [i, f] of files.entries()) {
    let img = sharp(join(folder, 'images', f), { failOn: 'none' }).rotate();
    if (scale !== 1) {
      const { width, height } = await img.metadata();
      img = sharp(await img.toBuffer()).resize(Math.max(1, Math.round(width! * scale)), Math.max(1, Math.round(height! * scale)));
    }
    if (degrees) img = sharp(await img.toBuffer()).rotate(i % 2 ? -degrees : degrees, { background: '#ffffff' });
    writeFileSync(join(out, 'images', f.replace(/\.[^.]+$/, '.jpg')), await img.flatten({ background: '#ffffff' }).jpeg({ quality: 95 }).toBuffer());
  }
  console.log(`${files.length} pages written to ${out}/images (turned ${degrees}°, alternately both ways; scaled ${scale})`);
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
