import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readConfigFile, updateConfigFile } from '../config/config-file.js';
import { userConfigPath } from '../config/config-paths.js';
import { configuredStateDirectory, defaultStateDirectory, sharedStateDirectory, sharedStateFiles, stateDirectoryOf, transcriptLedgerFile } from './state-layout.js';

describe('transcriptLedgerFile', () => {
  const state = path.resolve('/tmp/graphiti-state');

  it('keeps one ledger per transcript in the hooks folder, named as earlier versions named it', () => {
    const transcript = path.resolve('/home/ada/.claude/projects/engine/session.jsonl');
    const file = transcriptLedgerFile(state, transcript);
    expect(path.dirname(file)).toBe(path.join(sharedStateFiles(state).hooksDirectory, 'transcripts'));
    // The name earlier hook versions wrote: an upgrade finds their ledgers and takes nothing twice.
    const earlier = `${createHash('sha256').update(transcript).digest('hex').slice(0, 24)}.json`;
    expect(path.basename(file)).toBe(earlier);
  });

  it('names a transcript by its resolved path: one file however the path is spelt, another file per transcript', () => {
    const absolute = path.resolve('transcripts', 'a.jsonl');
    expect(transcriptLedgerFile(state, 'transcripts/./a.jsonl')).toBe(transcriptLedgerFile(state, absolute));
    expect(transcriptLedgerFile(state, 'transcripts/b.jsonl')).not.toBe(transcriptLedgerFile(state, absolute));
  });
});

describe('the state folder a relative path names', () => {
  it("takes the user config's stateDir beside the config file, and a flag or variable in the working folder given", async () => {
    const root = await fs.mkdtemp(path.join(os.tmpdir(), 'state-folder-'));
    try {
      const env = { GRAPHITI_MEMORY_CONFIG_DIR: path.join(root, 'config') };
      await updateConfigFile(userConfigPath(env), { stateDir: 'state' });
      const userConfig = await readConfigFile(userConfigPath(env));
      const elsewhere = path.join(root, 'elsewhere');
      expect(configuredStateDirectory({ env, userConfig, cwd: elsewhere })).toBe(path.join(root, 'config', 'state'));
      expect(await sharedStateDirectory(env, elsewhere)).toBe(path.join(root, 'config', 'state'));
      // Wherever the tool runs (the process's own folder too), one folder.
      expect(await sharedStateDirectory(env)).toBe(path.join(root, 'config', 'state'));
      expect(configuredStateDirectory({ env: { ...env, GRAPHITI_MEMORY_STATE_DIR: 'from-variable' }, userConfig, cwd: elsewhere })).toBe(path.join(elsewhere, 'from-variable'));
      expect(configuredStateDirectory({ flag: 'from-flag', env: { ...env, GRAPHITI_MEMORY_STATE_DIR: '/abs' }, userConfig, cwd: elsewhere })).toBe(path.join(elsewhere, 'from-flag'));
      expect(configuredStateDirectory({ env, userConfig: { ok: true, values: {}, exists: false } })).toBeUndefined();
      expect(stateDirectoryOf({ env, userConfig: { ok: true, values: {}, exists: false } })).toBe(defaultStateDirectory());
    } finally {
      await fs.rm(root, { recursive: true, force: true });
    }
  });
});
