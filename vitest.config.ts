import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      { test: { name: 'unit', include: ['test/unit/**/*.test.ts'], environment: 'node', env: { LOG_LEVEL: 'warn' }, testTimeout: 30_000 } },
      { test: { name: 'infra', include: ['test/infra/**/*.test.ts'], environment: 'node', env: { LOG_LEVEL: 'warn' }, testTimeout: 120_000 } },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          environment: 'node', env: { LOG_LEVEL: 'warn' },
          testTimeout: 60_000,
          hookTimeout: 60_000,
          fileParallelism: false,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          environment: 'node', env: { LOG_LEVEL: 'warn' },
          testTimeout: 180_000,
          hookTimeout: 120_000,
          fileParallelism: false,
          // Screens load their code on first use (route-level code splitting): polls wait up to 15 s for them.
          expect: { poll: { timeout: 15_000 } },
        },
      },
    ],
  },
});
