// Vitest setup: each test file's config folder goes when the file is done, so test runs leave no
// `graphiti-harness-test-config-<pid>` folders behind in the temp folder.
import fs from 'node:fs';
import { afterAll } from 'vitest';
import { TEST_CONFIG_DIRECTORY } from './captured-terminal.js';

afterAll(() => {
  fs.rmSync(TEST_CONFIG_DIRECTORY, { recursive: true, force: true, maxRetries: 3 });
});
