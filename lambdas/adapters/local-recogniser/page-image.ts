/**
 * A page as raw RGB pixels (`RgbImage`), decoded from an image file and turned or cut with sharp (libvips): the
 * pixels the text detector and the recogniser read.
 */
import sharp from 'sharp';

/** A grayscale-or-colour page as raw RGB pixels. */
export interface RgbImage {
  data: Buffer;
  width: number;
  height: number;
}

/** The pixels of a rectangle of the page (inside it), as an image of their own. */
export function cropRgb(img: RgbImage, left: number, top: number, width: number, height: number): RgbImage {
  const data = Buffer.allocUnsafe(width * height * 3);
  for (let y = 0; y < height; y++) {
    const from = ((top + y) * img.width + left) * 3;
    img.data.copy(data, y * width * 3, from, from + width * 3);
  }
  return { data, width, height };
}

/** A page turned clockwise by `degrees`, on a white canvas grown to hold it all. */
export async function rotatedRgb(img: RgbImage, degrees: number): Promise<RgbImage> {
  const { data, info } = await sharp(img.data, { raw: { width: img.width, height: img.height, channels: 3 } })
    .rotate(degrees, { background: '#ffffff' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** Decodes an image file to raw RGB, EXIF orientation applied, turned clockwise by `rotate`, at `scale` of its size. */
export async function decodeRgb(bytes: Uint8Array, rotate: 0 | 90 | 180 | 270 = 0, scale = 1): Promise<RgbImage> {
  let img = sharp(bytes, { failOn: 'none' }).rotate();
  if (scale !== 1) {
    const { autoOrient } = await img.metadata();
    img = img.resize(Math.max(1, Math.round(autoOrient.width * scale)), Math.max(1, Math.round(autoOrient.height * scale)), { fit: 'fill' });
  }
  let { data, info } = await img.removeAlpha().toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
  // The quarter turn is a second pipeline (sharp turns once per pipeline besides EXIF), on the decoded pixels: no
  // second lossy encoding.
  if (rotate) {
    ({ data, info } = await sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } })
      .rotate(rotate)
      .raw()
      .toBuffer({ resolveWithObject: true }));
  }
  if (info.channels === 3) return { data, width: info.width, height: info.height };
  // Grayscale sources come back with one channel: spread it over three.
  const rgb = Buffer.alloc(info.width * info.height * 3);
  for (let p = 0; p < info.width * info.height; p++) rgb[p * 3] = rgb[p * 3 + 1] = rgb[p * 3 + 2] = data[p * info.channels]!;
  return { data: rgb, width: info.width, height: info.height };
}
