import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startEmulator } from '@graphiti-memory/graphiti-emulator';
import { describe, expect, it } from 'vitest';
import { runHarness } from '../cli/program.js';
import { capturedTerminal } from '../test-support/captured-terminal.js';

describe('track', () => {
  it('ingests a session once it is quiet and stops cleanly on Ctrl-C', async () => {
    const emulator = await startEmulator({ processingDelayMs: 1 });
    const folder = await fs.mkdtemp(path.join(os.tmpdir(), 'harness-track-'));
    try {
      const transcripts = path.join(folder, 'transcripts');
      await fs.mkdir(transcripts);
      const terminal = capturedTerminal({ cwd: folder });
      const running = runHarness(
        ['track', transcripts, '--granularity', 'turn', '--idle', '0.2', '--format', 'jsonl', '--json', '--endpoint', emulator.url, '--state-dir', path.join(folder, 'state')],
        { terminal },
      );
      await new Promise((resolve) => setTimeout(resolve, 500));
      const lines = [
        { role: 'user', content: 'The team uses pnpm.', timestamp: '2025-03-01T10:00:00Z' },
        { role: 'assistant', content: 'Noted.', timestamp: '2025-03-01T10:00:05Z' },
      ];
      await fs.writeFile(path.join(transcripts, 'session.jsonl'), `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
      const deadline = Date.now() + 10_000;
      while (emulator.state.episodes().length < 4 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
      terminal.interrupt();
      expect(await running).toBe(0);
      expect(emulator.state.episodes()).toHaveLength(4);
      expect(JSON.parse(terminal.out())).toMatchObject({ ok: true, turns: 1, sessions: 1 });
    } finally {
      await emulator.close();
      await fs.rm(folder, { recursive: true, force: true });
    }
  });
});
