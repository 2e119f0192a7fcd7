// The dependency direction of DESIGN.md, as data. The rule in layers-rule.js reads only this map,
// so changing an arrow of the architecture is a one-line change here, reviewed like any other.

/**
 * @typedef {object} Layer
 * @property {Record<string, 'runtime' | 'type'>} workspace workspace packages this one may import, and how
 * @property {boolean} [nodeBuiltins] may import `node:*` and Node's built-in modules at runtime
 * @property {string[]} [typeOnlyModules] outside modules allowed only as `import type`
 * @property {string[]} [forbiddenModules] outside modules never allowed
 * @property {Record<string, string[]>} [runtimeSubpaths] entries of a `type`-only workspace package
 *   that may still be imported at runtime: modules with no runtime imports of their own
 */

const platformAgnostic = {
  nodeBuiltins: false,
  typeOnlyModules: ['vscode'],
  forbiddenModules: ['undici'],
};

/** @type {Record<string, Layer>} */
export const layers = {
  '@graphiti-memory/graphiti-client': {
    workspace: {},
    nodeBuiltins: true,
    forbiddenModules: ['vscode'],
  },
  '@graphiti-memory/memory-core': {
    workspace: { '@graphiti-memory/graphiti-client': 'type' },
    ...platformAgnostic,
  },
  '@graphiti-memory/memory-node-storage': {
    workspace: { '@graphiti-memory/memory-core': 'runtime', '@graphiti-memory/graphiti-client': 'type' },
    nodeBuiltins: true,
    forbiddenModules: ['vscode'],
  },
  '@graphiti-memory/prompt-elements': {
    workspace: { '@graphiti-memory/memory-core': 'type' },
    // The episode format (promotion kinds, the `<graphiti_episode>` block) and the folding of text
    // as it will be read (one sanitiser for the secret guard, recall and every display) are shared.
    runtimeSubpaths: { '@graphiti-memory/memory-core': ['./episode-format', './reading-text'] },
    ...platformAgnostic,
  },
  // The agent hooks (runner, hook server, drainer, installers) and the Node composition every tool
  // opens memory with: used by both apps, never importing one.
  '@graphiti-memory/agent-hooks': {
    workspace: {
      '@graphiti-memory/graphiti-client': 'runtime',
      '@graphiti-memory/memory-core': 'runtime',
      '@graphiti-memory/memory-node-storage': 'runtime',
      '@graphiti-memory/prompt-elements': 'runtime',
    },
    nodeBuiltins: true,
    forbiddenModules: ['vscode'],
  },
  '@graphiti-memory/graphiti-emulator': {
    workspace: { '@graphiti-memory/graphiti-client': 'runtime' },
    nodeBuiltins: true,
    forbiddenModules: ['vscode'],
  },
  // Private: measures the packages through their public exports, as an app composes them.
  '@graphiti-memory/benchmarks': {
    workspace: {
      '@graphiti-memory/graphiti-client': 'runtime',
      '@graphiti-memory/memory-core': 'runtime',
      '@graphiti-memory/memory-node-storage': 'runtime',
      '@graphiti-memory/graphiti-emulator': 'runtime',
    },
    nodeBuiltins: true,
    forbiddenModules: ['vscode'],
  },
  // Private: drives the product only through its binaries (graphiti-harness, the hook runner) and
  // the real Claude Code CLI; in process it runs nothing but the emulator.
  '@graphiti-memory/claude-code-e2e': {
    workspace: { '@graphiti-memory/graphiti-emulator': 'runtime' },
    nodeBuiltins: true,
    forbiddenModules: ['vscode'],
  },
};

/** Packages of `apps/` may import any package; nothing may import an app. */
export const appLayer = { nodeBuiltins: true };

/**
 * Test files (`*.test.*`) run in Node beside the code they exercise: they may use Node, the emulator
 * and the client, but still never an app, a deep path or a relative path across packages. Test
 * support (a package's `test-support/` folder, beside `src/`) is not a test file: it follows its
 * package's layer.
 */
export const testFileLayer = {
  nodeBuiltins: true,
  extraWorkspace: {
    '@graphiti-memory/graphiti-emulator': 'runtime',
    '@graphiti-memory/graphiti-client': 'runtime',
    '@graphiti-memory/memory-core': 'runtime',
  },
};
