/**
 * The zip containers of OOXML (docx, xlsx) and OpenDocument (odt, ods) files, read with fflate. Only the
 * parts a reader asks for are inflated, and none larger than MAX_PART_BYTES (declared size), so a small
 * upload cannot expand into gigabytes.
 */
import { strFromU8, unzipSync } from 'fflate';

export const MAX_PART_BYTES = 64 * 1024 * 1024;

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

/** Opens the archive and inflates the entries `wanted` accepts. */
export function openZip(bytes: Uint8Array, wanted: (name: string) => boolean): ZipParts {
  const names: string[] = [];
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(bytes, {
      filter: (f) => {
        names.push(f.name);
        if (!wanted(f.name)) return false;
        if (f.originalSize > MAX_PART_BYTES) throw new BadZip(`${f.name} is larger than ${MAX_PART_BYTES} bytes`);
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
