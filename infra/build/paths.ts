import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root, found from this file's location (not from the working directory). */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** Handler sources: `handler` names in shared/routes.ts are paths under this folder without `.ts`. */
export const LAMBDAS_DIR = join(REPO_ROOT, 'lambdas');
/** Bundled handlers (git-ignored by infra/.gitignore), one content-addressed folder per build. */
export const HANDLER_BUILD_ROOT = join(REPO_ROOT, 'infra', '.build', 'handlers');
/** The built SPA (`npm run build:web`). */
export const WEB_DIST_DIR = join(REPO_ROOT, 'web', 'dist');

export function handlerSourcePath(handler: string, lambdasDir: string = LAMBDAS_DIR): string {
  return join(lambdasDir, `${handler}.ts`);
}
