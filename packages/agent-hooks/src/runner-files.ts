// Where this package's built hook runner lies: `dist/hook-runner.cjs` (the small entry agents run)
// beside `dist/hook-runner-core-<build>.cjs`. `graphiti-harness hooks install` writes the entry's
// absolute path into hook files; the extension's build copies both into its VSIX.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const HOOK_RUNNER_FILE_NAME = 'hook-runner.cjs';

/** `dist/hook-runner.cjs` of this package (src/ and dist/ sit at the same depth). */
export function hookRunnerFile(): string {
  return path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist', HOOK_RUNNER_FILE_NAME);
}
