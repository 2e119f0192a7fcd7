import { defineConfig } from 'vitest/config';

// Each case starts ESLint with the typescript parser: slow on a loaded CI machine, so allow time.
export default defineConfig({ test: { include: ['src/**/*.test.js'], testTimeout: 60_000 } });
