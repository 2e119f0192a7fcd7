// vitest setup: `import 'vscode'` in our sources is aliased to the double, but libraries loaded by
// Node itself (prompt-tsx converts messages with `require('vscode')`) bypass the alias. Route their
// `require('vscode')` to the same module instance, and start every test from a fresh host.
import fs from 'node:fs';
import Module from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeEach } from 'vitest';
import * as vscodeDouble from 'vscode';
import { disposeRunningHarnesses } from './harness-registry.js';
import { resetTestHost } from './vscode-double.js';

type Loader = (request: string, parent: unknown, isMain: boolean) => unknown;
const moduleWithLoader = Module as unknown as { _load: Loader };
const originalLoad = moduleWithLoader._load;
moduleWithLoader._load = function load(request, parent, isMain) {
  return request === 'vscode' ? vscodeDouble : originalLoad.call(this, request, parent, isMain);
};

// The user config (the shared user key) of a test run lives in a temporary folder, never the real one.
process.env['GRAPHITI_MEMORY_CONFIG_DIR'] = fs.mkdtempSync(path.join(os.tmpdir(), 'graphiti-memory-config-'));
// So does the state folder shared with the harness (the group registry).
process.env['GRAPHITI_MEMORY_STATE_DIR'] = fs.mkdtempSync(path.join(os.tmpdir(), 'graphiti-memory-state-'));
const temporaryFolders = [process.env['GRAPHITI_MEMORY_CONFIG_DIR'], process.env['GRAPHITI_MEMORY_STATE_DIR']];

afterAll(() => {
  // Retried: a write started by a test may still land while the folder is removed.
  for (const folder of temporaryFolders) fs.rmSync(folder, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
});

beforeEach(() => {
  resetTestHost();
});

// Every harness a test activated, disposed after it (a test file's own afterEach hooks run first).
afterEach(disposeRunningHarnesses);
