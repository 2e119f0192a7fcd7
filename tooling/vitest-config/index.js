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
        // Sized for a busy two-core laptop (a build running beside the suite), not an idle CI box:
        // tests wait on events, so a generous bound costs nothing when they pass.
        testTimeout: 60_000,
        hookTimeout: 60_000,
        pool: 'forks',
        reporters: process.env.CI ? ['default'] : ['default'],
      },
    }),
    overrides,
  );
}
