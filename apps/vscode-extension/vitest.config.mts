import { fileURLToPath } from 'node:url';
import { createVitestConfig } from '@graphiti-memory/vitest-config';

// `vscode` exists only inside VS Code: every test runs against the typed test double instead.
const vscodeDouble = fileURLToPath(new URL('./src/test-support/vscode-double.ts', import.meta.url));

export default createVitestConfig({
  resolve: { alias: { vscode: vscodeDouble } },
  test: {
    // Libraries that `require('vscode')` themselves (prompt-tsx) get the same double.
    setupFiles: ['./src/test-support/install-vscode-double.ts'],
  },
});
