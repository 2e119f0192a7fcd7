// Proves the layer rule: ESLint, run the way `pnpm lint` runs it, rejects each forbidden import
// and accepts the allowed ones (so the rule cannot pass by rejecting everything).
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../..');

/**
 * @param {string} packageDirectory relative to the repo root
 * @param {string} file relative to the package
 * @param {string} code
 */
async function layerMessages(packageDirectory, file, code) {
  const cwd = path.join(root, packageDirectory);
  const eslint = new ESLint({ cwd });
  const [result] = await eslint.lintText(code, { filePath: path.join(cwd, file) });
  return (result?.messages ?? []).filter((message) => message.ruleId === 'graphiti/layers' || message.fatal);
}

describe('graphiti/layers', () => {
  const rejected = [
    ['packages/memory-core', 'src/x.ts', "import { readFile } from 'node:fs';\nvoid readFile;", 'nodeBuiltin'],
    ['packages/memory-core', 'src/x.ts', "import path from 'path';\nvoid path;", 'nodeBuiltin'],
    ['packages/memory-core', 'src/x.ts', "import { request } from 'undici';\nvoid request;", 'forbidden'],
    ['packages/memory-core', 'src/x.ts', "import * as vscode from 'vscode';\nvoid vscode;", 'typeOnly'],
    [
      'packages/memory-core',
      'src/x.ts',
      "import { GraphitiClient } from '@graphiti-memory/graphiti-client';\nvoid GraphitiClient;",
      'typeOnly',
    ],
    ['packages/prompt-elements', 'src/x.tsx', "import fs from 'node:fs';\nvoid fs;", 'nodeBuiltin'],
    [
      'packages/graphiti-client',
      'src/x.ts',
      "import { createMemoryModule } from '@graphiti-memory/memory-core';\nvoid createMemoryModule;",
      'notAllowed',
    ],
    ['packages/memory-core', 'src/x.ts', "import { main } from '@graphiti-memory/dev-harness';\nvoid main;", 'importsApp'],
    ['tooling/graphiti-emulator', 'src/x.ts', "import { main } from '@graphiti-memory/dev-harness';\nvoid main;", 'importsApp'],
    [
      'packages/memory-node-storage',
      'src/x.ts',
      "import { x } from '@graphiti-memory/memory-core/src/index.js';\nvoid x;",
      'deepImport',
    ],
    [
      'packages/memory-node-storage',
      'src/x.ts',
      "import { x } from '../../memory-core/src/index.js';\nvoid x;",
      'crossRelative',
    ],
    [
      'packages/memory-core',
      'src/x.ts',
      "import { x } from '@graphiti-memory/memory-node-storage';\nvoid x;",
      'notAllowed',
    ],
    ['packages/memory-core', 'src/x.ts', "const fs = await import('node:fs');\nvoid fs;", 'nodeBuiltin'],
    // Test support and benchmark files follow their package's layer too.
    ['packages/memory-core', 'test-support/x.ts', "import fs from 'node:fs';\nvoid fs;", 'nodeBuiltin'],
    [
      'packages/memory-core',
      'test-support/x.ts',
      "import { startEmulator } from '@graphiti-memory/graphiti-emulator';\nvoid startEmulator;",
      'notAllowed',
    ],
    ['packages/prompt-elements', 'src/bench/x.ts', "import { performance } from 'node:perf_hooks';\nvoid performance;", 'nodeBuiltin'],
    ['tooling/benchmarks', 'src/x.ts', "import * as vscode from 'vscode';\nvoid vscode;", 'forbidden'],
    // prompt-elements shares memory-core's episode format at runtime, and nothing else of it.
    ['packages/prompt-elements', 'src/x.tsx', "import { createMemoryModule } from '@graphiti-memory/memory-core';\nvoid createMemoryModule;", 'typeOnly'],
    ['tooling/benchmarks', 'src/x.ts', "import { main } from '@graphiti-memory/dev-harness';\nvoid main;", 'importsApp'],
    // The agent hooks serve both apps and import neither; their product code never reaches tooling.
    ['packages/agent-hooks', 'src/x.ts', "import { main } from '@graphiti-memory/dev-harness';\nvoid main;", 'importsApp'],
    ['packages/agent-hooks', 'src/x.ts', "import * as vscode from 'vscode';\nvoid vscode;", 'forbidden'],
    ['packages/agent-hooks', 'src/x.ts', "import { undiciAgentOnly } from '@graphiti-memory/build-support/undici-agent-only';\nvoid undiciAgentOnly;", 'notAllowed'],
    ['packages/memory-node-storage', 'src/x.ts', "import { runHook } from '@graphiti-memory/agent-hooks';\nvoid runHook;", 'notAllowed'],
  ];

  it.each(rejected)('%s/%s rejects: %s', async (packageDirectory, file, code, messageId) => {
    const messages = await layerMessages(packageDirectory, file, code);
    expect(messages.map((message) => message.messageId)).toEqual([messageId]);
    expect(messages[0]?.message.length).toBeGreaterThan(30);
  });

  const accepted = [
    ['packages/memory-core', 'src/x.ts', "import type { FactResult } from '@graphiti-memory/graphiti-client';\nexport type F = FactResult;"],
    ['packages/memory-core', 'src/x.ts', "import type * as vscode from 'vscode';\nexport type U = vscode.Uri;"],
    ['packages/memory-core', 'src/x.test.ts', "import { startEmulator } from '@graphiti-memory/graphiti-emulator';\nimport fs from 'node:fs';\nvoid startEmulator; void fs;"],
    ['packages/memory-node-storage', 'src/x.ts', "import fs from 'node:fs';\nimport { createMemoryModule } from '@graphiti-memory/memory-core';\nvoid fs; void createMemoryModule;"],
    ['apps/dev-harness', 'src/x.ts', "import { GraphitiClient } from '@graphiti-memory/graphiti-client';\nimport { createMemoryModule } from '@graphiti-memory/memory-core';\nvoid GraphitiClient; void createMemoryModule;"],
    ['packages/memory-core', 'src/x.ts', "import { z } from 'zod';\nimport { helper } from './helper.js';\nvoid z; void helper;"],
    ['packages/prompt-elements', 'src/x.tsx', "import { PROMOTION_KINDS } from '@graphiti-memory/memory-core/episode-format';\nvoid PROMOTION_KINDS;"],
    ['packages/agent-hooks', 'src/x.ts', "import fs from 'node:fs';\nimport { FileOutbox } from '@graphiti-memory/memory-node-storage';\nimport { createGraphitiClient } from '@graphiti-memory/graphiti-client';\nvoid fs; void FileOutbox; void createGraphitiClient;"],
    ['packages/agent-hooks', 'scripts/x.mjs', "import { undiciAgentOnly } from '@graphiti-memory/build-support/undici-agent-only';\nvoid undiciAgentOnly;"],
    ['apps/vscode-extension', 'src/x.ts', "import { installAgentHooks } from '@graphiti-memory/agent-hooks';\nvoid installAgentHooks;"],
    [
      'tooling/benchmarks',
      'src/core/x.ts',
      "import { performance } from 'node:perf_hooks';\nimport { IngestionService, SystemClock } from '@graphiti-memory/memory-core';\nimport { FileOutbox } from '@graphiti-memory/memory-node-storage';\nimport { startEmulator } from '@graphiti-memory/graphiti-emulator';\nvoid performance; void IngestionService; void SystemClock; void FileOutbox; void startEmulator;",
    ],
  ];

  it.each(accepted)('%s/%s accepts an allowed import', async (packageDirectory, file, code) => {
    expect(await layerMessages(packageDirectory, file, code)).toEqual([]);
  });

  it('makes the eslint command fail on a file with a forbidden import', async () => {
    // The CLI as `pnpm lint` runs it, reading the file from stdin under a path inside memory-core:
    // no probe file is written into the package, so parallel lint and type-check runs never see one.
    const packageDirectory = path.join(root, 'packages/memory-core');
    const eslintBin = path.join(root, 'tooling/eslint-config/node_modules/eslint/bin/eslint.js');
    const outcome = spawnSync(
      process.execPath,
      [eslintBin, '--max-warnings=0', '--stdin', '--stdin-filename', path.join(packageDirectory, 'src', 'layer-probe.ts')],
      { cwd: packageDirectory, input: "import { request } from 'undici';\nexport const probe = request;\n", encoding: 'utf8' },
    );
    expect(outcome.status).toBe(1);
    expect(outcome.stdout).toContain('graphiti/layers');
    expect(outcome.stdout).toContain("may not import 'undici'");
  });
});

describe('workspace manifests', () => {
  it('no package or app depends on an app, at build time or at run time', async () => {
    const { listWorkspacePackages } = await import('./workspace.js');
    const fs = await import('node:fs');
    const packages = listWorkspacePackages(root);
    const apps = new Set(packages.filter((candidate) => candidate.kind === 'apps').map((candidate) => candidate.name));
    expect(apps.size).toBeGreaterThanOrEqual(2);
    const offenders = packages.flatMap((candidate) => {
      const manifest = JSON.parse(fs.readFileSync(path.join(candidate.dir, 'package.json'), 'utf8'));
      const listed = Object.keys({ ...manifest.dependencies, ...manifest.devDependencies, ...manifest.peerDependencies, ...manifest.optionalDependencies });
      return listed.filter((name) => apps.has(name)).map((name) => `${candidate.name} → ${name}`);
    });
    expect(offenders).toEqual([]);
  });
});
