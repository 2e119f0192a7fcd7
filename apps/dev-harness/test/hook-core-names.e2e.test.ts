// The BUILT hook core is minified, and minifying renames classes. What logs and `errorClassOf`
// print of a failure is its `name`: in the core the runner (and the VSIX, through the shared stack)
// loads, every error class of graphiti-client must still name itself as exported.
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runnerBuild } from '@graphiti-memory/agent-hooks';
import { hookRunnerFile } from '@graphiti-memory/agent-hooks/runner-files';

const dist = path.dirname(hookRunnerFile());

describe('the built hook core', () => {
  it('keeps the names of graphiti-client’s error classes, and errorClassOf reads them', () => {
    // The core the entry names (turbo's cache can leave an older one beside it).
    const build = runnerBuild(path.join(dist, 'hook-runner.cjs'));
    expect(build, 'dist/hook-runner.cjs and its core (build the harness first)').toBeDefined();
    const { stack } = createRequire(import.meta.url)(path.join(dist, `hook-runner-core-${build ?? ''}.cjs`)) as {
      stack: { graphitiClient: Record<string, unknown>; memoryCore: { errorClassOf(error: unknown): string } };
    };
    const request = { method: 'GET', path: '/healthcheck', status: 500, body: '', headers: {}, rawBody: '', issues: [], timeoutMs: 1, detail: undefined };
    const errorClasses = Object.entries(stack.graphitiClient).filter(([name]) => /^Graphiti\w*Error$/.test(name) && name !== 'GraphitiError');
    expect(errorClasses.length).toBeGreaterThanOrEqual(10);
    for (const [name, ErrorClass] of errorClasses) {
      const error = new (ErrorClass as new (message: string, init: unknown) => Error)('x', request);
      expect({ name, errorClass: stack.memoryCore.errorClassOf(error) }).toEqual({ name, errorClass: name });
    }
  });
});
