import { createVitestConfig } from '@graphiti-memory/vitest-config';

export default createVitestConfig({
  test: { setupFiles: ['./src/test-support/remove-test-config.ts'] },
});
