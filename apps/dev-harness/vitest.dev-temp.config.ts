import { createVitestConfig } from '@graphiti-memory/vitest-config';
export default createVitestConfig({ resolve: { alias: [{ find: /^@graphiti-memory\/memory-core$/, replacement: '/tmp/harness-dev/core-index.ts' }] } });
