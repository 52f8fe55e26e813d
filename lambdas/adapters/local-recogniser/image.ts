/**
 * Image preparation before Tesseract (sharp): EXIF orientation applied, grayscale, contrast normalised,
 * small images enlarged and very large scans reduced to a resolution where receipt text is still
 * well above tesseract's useful size.
 */
import sharp from 'sharp';

export interface PreparedImage {
  png: Buffer;
  width: number;
  height: number;
  /** Scale applied to the source (after EXIF rotation). */
  scale: number;
}

export interface PrepareOptions {
  /** Images narrower than this are enlarged to it (default: no enlargement). */
  minWidth?: number;
  /** Images wider than this are reduced to it (default 2500 px). */
  maxWidth?: number;
  /** A scale to apply instead of the width limits. */
  scale?: number;
  /** Extra rotation (clockwise degrees) after the EXIF orientation. */
  rotate?: 0 | 90 | 180 | 270;
  /** Stretch the contrast (default true). */
  normalise?: boolean;
}

export async function imageSize(bytes: Uint8Array): Promise<{ width: number; height: number }> {
  const m = await sharp(bytes).metadata();
  const swap = (m.orientation ?? 1) >= 5;
  return { width: (swap ? m.height : m.width) ?? 0, height: (swap ? m.width : m.height) ?? 0 };
}

export async function prepareImage(bytes: Uint8Array, opts: PrepareOptions = {}): Promise<PreparedImage> {
  const size = await imageSize(bytes);
  if (!size.width) throw new Error('The image cannot be read');
  const width = opts.rotate === 90 || opts.rotate === 270 ? size.height : size.width;
  const minWidth = opts.minWidth ?? 0;
  const maxWidth = opts.maxWidth ?? 2500;
  const scale = opts.scale ?? (width < minWidth ? minWidth / width : width > maxWidth ? maxWidth / width : 1);
  let img = sharp(bytes, { failOn: 'none' }).rotate(); // EXIF orientation
  if (opts.rotate) img = sharp(await img.toBuffer(), { failOn: 'none' }).rotate(opts.rotate);
  img = img.grayscale();
  if (Math.abs(scale - 1) > 0.01) img = img.resize({ width: Math.round(width * scale), kernel: scale > 1 ? 'cubic' : 'lanczos3' });
  if (opts.normalise ?? true) img = img.normalise({ lower: 1, upper: 99 });
  const { data, info } = await img.png({ compressionLevel: 1 }).toBuffer({ resolveWithObject: true });
  return { png: data, width: info.width, height: info.height, scale };
}
