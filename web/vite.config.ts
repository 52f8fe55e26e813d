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
  },
  server: {
    // web/src imports ../shared (schemas, constants, errors).
    fs: { allow: [repoRoot] },
  },
});
