// The memory runtime (dist/runtime.cjs) and the agent hook runner's core
// (dist/hook-runner-core-<build>.cjs, built by @graphiti-memory/agent-hooks) carry the same libraries: the workspace
// packages, inversify, prompt-tsx. The VSIX ships them once: the core exports them as `stack`
// (packages/agent-hooks/src/hook/shared-stack.ts) and this plugin turns each such import in the runtime
// into `require('./hook-runner-core-<build>.cjs').stack.<name>` — one copy, one inversify (and
// reflect-metadata) instance for the runtime's decorators and memory-core's container.

import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/**
 * Bare import → the core's `stack` export that holds it, read from the one list the core exports
 * (packages/agent-hooks/src/hook/shared-stack.ts: `export * as <name> from '<module>';`), so the
 * runtime and the core can never disagree on it.
 */
export const SHARED_STACK = readSharedStack();

function readSharedStack() {
  const agentHooks = path.dirname(createRequire(import.meta.url).resolve('@graphiti-memory/agent-hooks/package.json'));
  const file = path.join(agentHooks, 'src', 'hook', 'shared-stack.ts');
  const stack = Object.fromEntries([...fs.readFileSync(file, 'utf8').matchAll(/^export \* as (\w+) from '([^']+)';$/gm)].map(([, name, module]) => [module, name]));
  if (Object.keys(stack).length === 0) throw new Error(`${file} exports no library as \`export * as name from 'module'\`; the runtime could share nothing with the runner's core`);
  return stack;
}

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** @returns {import('esbuild').Plugin} */
export function sharedStack(coreFileName) {
  const core = `./${coreFileName}`;
  return {
    name: 'shared-stack',
    setup(build) {
      build.onResolve({ filter: new RegExp(`^(${Object.keys(SHARED_STACK).map(escape).join('|')})$`) }, (args) => ({ path: args.path, namespace: 'shared-stack' }));
      build.onResolve({ filter: new RegExp(`^${escape(core)}$`) }, (args) => ({ path: args.path, external: true }));
      build.onLoad({ filter: /.*/, namespace: 'shared-stack' }, (args) => ({
        // An ES module namespace seen from CommonJS: keep its getters, and mark it so a default
        // import (env-paths) takes its `default`.
        contents: [
          `const stack = require(${JSON.stringify(core)}).stack;`,
          `module.exports = Object.defineProperties({ __esModule: true }, Object.getOwnPropertyDescriptors(stack.${SHARED_STACK[args.path]}));`,
        ].join('\n'),
        loader: 'js',
        resolveDir: '.',
      }));
    },
  };
}
