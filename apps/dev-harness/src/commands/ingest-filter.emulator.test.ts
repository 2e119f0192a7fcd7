// `ingest` and the configured `filter`: what reaches Graphiti is the transcript as the filter keeps
// it (a preset or per-kind modes from the config files), for plain JSONL as for every format.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { RunningEmulator } from '@graphiti-memory/graphiti-emulator';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { closeEmulatorCommands, openEmulatorCommands, runCommand, type EmulatorCommandsFixture } from '../test-support/emulator-commands.js';

let fixture: EmulatorCommandsFixture;
let emulator: RunningEmulator;
let folder: string;

beforeEach(async () => {
  fixture = await openEmulatorCommands('harness-ingest-filter-', {});
  ({ emulator, folder } = fixture);
});

afterEach(() => closeEmulatorCommands(fixture));

const CODE_LINE = 'export const retryBudgetMs = 30_000;';
const TRANSCRIPT = [
  { role: 'user', content: 'Where is the retry budget set?', timestamp: '2026-11-05T10:00:00Z' },
  {
    role: 'assistant',
    content: ['In the delivery module:', '', '```ts', CODE_LINE, ...Array.from({ length: 11 }, (_, index) => `export const other${index} = ${index};`), '```', '', 'Lower it for tests.'].join('\n'),
    timestamp: '2026-11-05T10:00:01Z',
  },
]
  .map((line) => JSON.stringify(line))
  .join('\n');

async function ingestedText(): Promise<string> {
  const file = path.join(folder, 'session.jsonl');
  await fs.writeFile(file, `${TRANSCRIPT}\n`);
  const run = await runCommand(folder, ['ingest', file, '--format', 'jsonl', '--wait', '20', '--json', '--endpoint', emulator.url]);
  expect(run.exitCode, run.err).toBe(0);
  return emulator.state
    .episodes()
    .map((episode) => episode.content)
    .join('\n');
}

describe('ingest under the configured filter', () => {
  it('summarises code in replies by default (compact)', async () => {
    const text = await ingestedText();
    expect(text).toContain('[code: ts, 12 lines]');
    expect(text).not.toContain(CODE_LINE);
    expect(text).toContain('Lower it for tests.');
  });

  it("takes per-kind modes from the project's .graphiti-memory.json: code omitted, prose kept", async () => {
    await fs.writeFile(path.join(folder, 'workspace', '.graphiti-memory.json'), JSON.stringify({ filter: { preset: 'compact', code: 'omit' } }));
    const text = await ingestedText();
    expect(text).not.toContain('[code:');
    expect(text).not.toContain(CODE_LINE);
    expect(text).toContain('In the delivery module:');
    expect(text).toContain('Where is the retry budget set?');
  });
});
