/**
 * Docker build contexts of handlers shipped as container images (the office converter, whose LibreOffice does not
 * fit a zip or a layer): the files of the image's folder under infra/images/ (Dockerfile, entry script) plus the
 * handler's esbuild bundle under `function/`. Written at synth time into infra/.build/images/ (git-ignored),
 * content-addressed (`<image>-<hash>`, the hash of the image files and the bundle), so an unchanged image keeps its
 * asset hash and is not rebuilt. Synth needs no Docker: CDK builds the image from this folder at deploy time
 * (`cdk deploy` / `cdk-assets publish`, with Docker or finch on the deploying machine).
 */
import { createHash, randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, linkSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, sep } from 'node:path';
import { filesUnder, type BuiltHandler } from './bundle-handlers';
import { REPO_ROOT } from './paths';

/** Where the build contexts are written. */
export const IMAGE_BUILD_ROOT = join(REPO_ROOT, 'infra', '.build', 'images');
/** The office converter's image: LibreOffice, Node 22 and the Lambda runtime interface client on Debian. */
export const OFFICE_CONVERTER_IMAGE_DIR = join(REPO_ROOT, 'infra', 'images', 'office-converter');
/** The folder of the build context that holds the handler's bundle (the Dockerfile copies it to /var/task). */
export const IMAGE_FUNCTION_DIR = 'function';

const posix = (path: string) => path.split(sep).join('/');

function copyInto(from: string, to: string, link: boolean): void {
  mkdirSync(dirname(to), { recursive: true });
  if (link) {
    try {
      linkSync(from, to);
      return;
    } catch {
      /* another file system: copy */
    }
  }
  copyFileSync(from, to);
}

/** Removes contexts of the same image not used for a day (a parallel synth may still read a recent one). */
function prune(root: string, name: string, keep: string): void {
  const now = Date.now();
  for (const entry of readdirSync(root)) {
    if (entry === keep || !(entry.startsWith(`${name}-`) || entry.startsWith('tmp-'))) continue;
    const full = join(root, entry);
    if (now - statSync(full).mtimeMs > 24 * 3600_000) rmSync(full, { recursive: true, force: true });
  }
}

/**
 * The build context of `built` in the image of `imageDir`: an existing identical one, or a new one written to a
 * temporary folder and renamed into place (parallel synths never see a half-written context).
 */
export function imageContext(built: BuiltHandler, imageDir: string, root: string = IMAGE_BUILD_ROOT): string {
  if (!existsSync(join(imageDir, 'Dockerfile'))) throw new Error(`${posix(relative(REPO_ROOT, imageDir))} has no Dockerfile`);
  const imageFiles = filesUnder(imageDir);
  const hash = createHash('sha256');
  for (const file of imageFiles) hash.update(`${posix(relative(imageDir, file))}\0`).update(readFileSync(file)).update('\0');
  hash.update(`bundle\0${built.architecture}\0${built.contentHash}`);
  const name = basename(imageDir);
  const dir = join(root, `${name}-${hash.digest('hex').slice(0, 20)}`);
  if (existsSync(dir)) return dir;

  mkdirSync(root, { recursive: true });
  const tmp = join(root, `tmp-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    // The image's own files are copied (the entry script keeps its mode), the bundle's are linked where possible.
    for (const file of imageFiles) copyInto(file, join(tmp, relative(imageDir, file)), false);
    for (const file of filesUnder(built.dir)) copyInto(file, join(tmp, IMAGE_FUNCTION_DIR, relative(built.dir, file)), true);
    try {
      renameSync(tmp, dir);
    } catch (error) {
      // Another process renamed an identical context into place first.
      if (!existsSync(dir)) throw error;
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  prune(root, name, basename(dir));
  return dir;
}
