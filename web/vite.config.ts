import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';

const webRoot = fileURLToPath(new URL('.', import.meta.url));
const repoRoot = fileURLToPath(new URL('..', import.meta.url));

/**
 * The API's OpenAPI document, generated from the route table and the handlers' zod schemas
 * (scripts/openapi) into dist/api/openapi.json; the deployment publishes it with the API's URL as server.
 */
function openApiDocument(): Plugin {
  let outDir = '';
  return {
    name: 'receipts-openapi-document',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      const script = path.join(repoRoot, 'scripts', 'openapi', 'write.ts');
      const result = spawnSync(process.execPath, ['--import', 'tsx', script, path.join(outDir, 'api', 'openapi.json')], {
        cwd: repoRoot,
        stdio: ['ignore', 'ignore', 'inherit'],
        env: { ...process.env, LOG_LEVEL: 'warn' },
      });
      if (result.status !== 0) throw new Error(`OpenAPI document not generated (exit ${result.status ?? result.signal})`);
    },
  };
}

// No @vitejs/plugin-react: Vite 8 transforms TS/TSX with Oxc; JSX uses the automatic runtime.
export default defineConfig({
  root: webRoot,
  base: '/',
  publicDir: false,
  plugins: [openApiDocument()],
  oxc: { jsx: { runtime: 'automatic' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    // dist/.vite/manifest.json: the entry chunk and its static imports, measured by `npm run bench:bundle`.
    manifest: true,
    chunkSizeWarningLimit: 1200,
    rolldownOptions: {
      onwarn(warning, defaultHandler) {
        // React Query ships "use client" directives; they mean nothing in an SPA bundle.
        if (warning.code === 'MODULE_LEVEL_DIRECTIVE') return;
        defaultHandler(warning);
      },
    },
  },
  server: {
    // web/src imports ../shared (schemas, constants, errors).
    fs: { allow: [repoRoot] },
  },
});
