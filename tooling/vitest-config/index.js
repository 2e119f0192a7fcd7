// Tests import workspace packages through their `exports`, resolved to TypeScript source through
// the "@graphiti-memory/source" condition, so a test run never depends on a stale build.
import { defineConfig, mergeConfig } from 'vitest/config';

const conditions = ['@graphiti-memory/source', 'import', 'module', 'node', 'default'];

/** @param {import('vitest/config').UserConfig} [overrides] */
export function createVitestConfig(overrides = {}) {
  return mergeConfig(
    defineConfig({
      resolve: { conditions },
      ssr: { resolve: { conditions, externalConditions: ['@graphiti-memory/source'] } },
      esbuild: { target: 'es2022' },
      test: {
        include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'test/**/*.test.ts'],
        testTimeout: 20_000,
        hookTimeout: 20_000,
        pool: 'forks',
        reporters: process.env.CI ? ['default'] : ['default'],
      },
    }),
    overrides,
  );
}
