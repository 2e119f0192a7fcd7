import { createVitestConfig } from '@graphiti-memory/vitest-config';

export default createVitestConfig();
