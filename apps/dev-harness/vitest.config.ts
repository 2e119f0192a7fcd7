import { createVitestConfig } from '@graphiti-memory/vitest-config';

export default createVitestConfig({
  test: {
    setupFiles: ['./src/test-support/remove-test-config.ts'],
    // Most files here spawn hook processes, hook servers, drainers and an emulator: on a busy
    // two-core laptop each step can take seconds, so the bounds are wide (the tests wait on events)
    // and at most two such files run at once.
    testTimeout: 180_000,
    hookTimeout: 120_000,
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
  },
});
