import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const webRoot = fileURLToPath(new URL('.', import.meta.url));
const repoRoot = fileURLToPath(new URL('..', import.meta.url));

// No @vitejs/plugin-react: Vite 8 transforms TS/TSX with Oxc; JSX uses the automatic runtime.
export default defineConfig({
  root: webRoot,
  base: '/',
  publicDir: false,
  oxc: { jsx: { runtime: 'automatic' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
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
