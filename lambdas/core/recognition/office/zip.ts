/**
 * The zip containers of OOXML (docx, xlsx) and OpenDocument (odt, ods) files, read with fflate. Only the
 * parts a reader asks for are inflated, none larger than `partBytes` and all together no more than `totalBytes`
 * (declared sizes: fflate inflates each part into a buffer of its declared size, so a part that claims less than it
 * holds is cut), and at most `parts` of them, so a small upload cannot expand into gigabytes (a 1 MB workbook of 16
 * sheets each declaring 64 MB did, before the total was bounded).
 */
import { strFromU8, unzipSync } from 'fflate';

export interface ZipLimits {
  /** Declared size of one inflated part. */
  partBytes: number;
  /** Sum of the declared sizes of the inflated parts. */
  totalBytes: number;
  /** Inflated parts. */
  parts: number;
}

export const MAX_PART_BYTES = 64 * 1024 * 1024;
export const ZIP_LIMITS: ZipLimits = { partBytes: MAX_PART_BYTES, totalBytes: 128 * 1024 * 1024, parts: 2000 };

export class BadZip extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BadZip';
  }
}

export interface ZipParts {
  /** Every entry name in the archive. */
  names: string[];
  has(name: string): boolean;
  /** The part as UTF-8 text; undefined when it is not in the archive. */
  text(name: string): string | undefined;
}

/** Opens the archive and inflates the entries `wanted` accepts, within `limits`. */
export function openZip(bytes: Uint8Array, wanted: (name: string) => boolean, limits: ZipLimits = ZIP_LIMITS): ZipParts {
  const names: string[] = [];
  let files: Record<string, Uint8Array>;
  let total = 0;
  let parts = 0;
  try {
    files = unzipSync(bytes, {
      filter: (f) => {
        names.push(f.name);
        if (!wanted(f.name)) return false;
        if (f.originalSize > limits.partBytes) throw new BadZip(`${f.name} is larger than ${limits.partBytes} bytes`);
        total += f.originalSize;
        if (total > limits.totalBytes) throw new BadZip(`its parts are larger than ${limits.totalBytes} bytes together`);
        if (++parts > limits.parts) throw new BadZip(`it has more than ${limits.parts} parts`);
        return true;
      },
    });
  } catch (error) {
    if (error instanceof BadZip) throw error;
    throw new BadZip(`not a readable zip archive${error instanceof Error ? ` (${error.message})` : ''}`);
  }
  return {
    names,
    has: (name) => names.includes(name),
    text: (name) => (files[name] ? strFromU8(files[name]).replace(/^\uFEFF/, '') : undefined),
  };
}
