import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { detectAgents } from './agent-detection.js';

let root: string;

beforeEach(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'agent-detection-'));
  await fs.mkdir(path.join(root, 'home'));
  await fs.mkdir(path.join(root, 'bin'));
});

afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

describe('detectAgents', () => {
  it('finds nothing in an empty home with an empty PATH', async () => {
    const found = await detectAgents({ home: path.join(root, 'home'), env: { PATH: path.join(root, 'bin') } });
    expect(found.map((agent) => [agent.target, agent.found])).toEqual([
      ['claude', false],
      ['copilot', false],
      ['codex', false],
      ['gemini', false],
      ['copilot-cli', false],
    ]);
  });

  it('finds Claude Code by ~/.claude, Copilot in VS Code by ~/.vscode*, Copilot CLI by its command on PATH', async () => {
    const home = path.join(root, 'home');
    await fs.mkdir(path.join(home, '.claude'));
    await fs.mkdir(path.join(home, '.vscode-insiders'));
    await fs.writeFile(path.join(root, 'bin', 'copilot'), '#!/bin/sh\n', { mode: 0o755 });
    // Not executable: not a command.
    await fs.writeFile(path.join(root, 'bin', 'claude'), 'not a program', { mode: 0o644 });
    const found = await detectAgents({ home, env: { PATH: path.join(root, 'bin') } });
    const claude = found.find((agent) => agent.target === 'claude');
    const copilot = found.find((agent) => agent.target === 'copilot');
    expect(claude).toMatchObject({ found: true, evidence: ['~/.claude'] });
    expect(copilot?.found).toBe(true);
    expect(copilot?.evidence).toEqual(['~/.vscode-insiders']);
    expect(found.find((agent) => agent.target === 'copilot-cli')).toMatchObject({ found: true, evidence: [`copilot on PATH (${path.join(root, 'bin', 'copilot')})`] });
    expect(found.find((agent) => agent.target === 'codex')?.found).toBe(false);
  });

  it('finds Claude Code by its command alone', async () => {
    await fs.writeFile(path.join(root, 'bin', 'claude'), '#!/bin/sh\n', { mode: 0o755 });
    const found = await detectAgents({ home: path.join(root, 'home'), env: { PATH: path.join(root, 'bin') } });
    expect(found.find((agent) => agent.target === 'claude')?.found).toBe(true);
    expect(found.find((agent) => agent.target === 'copilot')?.found).toBe(false);
  });
});
