// Cited facts and the stale check through the harness, on each face of the emulator: `recall --json`
// gives each fact its sources ({ tool, session, title, at, episode }) and the rendered block cites
// them; `forget --episode` removes that source and the facts only it supports; a fact naming a
// workspace file that is gone is marked, or left out with `recall.stale: drop`.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { RunningEmulator } from '@graphiti-memory/graphiti-emulator';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { closeEmulatorCommands, openEmulatorCommands, runCommand, type EmulatorCommandsFixture } from '../test-support/emulator-commands.js';
import { SAMPLE_TRANSCRIPT } from '../test-support/sample-transcript.js';

interface FactJson {
  readonly fact: string;
  readonly uuid: string;
  readonly sources: readonly Record<string, unknown>[];
  readonly stale: readonly string[];
}

let fixture: EmulatorCommandsFixture;
let emulator: RunningEmulator;
let folder: string;

describe.each(['rest', 'mcp'] as const)('cited recall through the harness (%s face)', (face) => {
  beforeEach(async () => {
    fixture = await openEmulatorCommands(`harness-cite-${face}-`, { face });
    ({ emulator, folder } = fixture);
  });
  afterEach(() => closeEmulatorCommands(fixture));

  const harness = (args: readonly string[]) => runCommand(folder, [...args, '--endpoint', emulator.url]);
  const recall = async (query: string): Promise<{ facts: FactJson[]; prompt: string }> => {
    const run = await harness(['recall', query, '--scopes', 'workspace', '--json']);
    expect(run.exitCode).toBe(0);
    return run.json() as unknown as { facts: FactJson[]; prompt: string };
  };

  it('cites the episode a fact came from, and forget --episode removes it with the facts only it supports', async () => {
    const file = path.join(folder, 'session.jsonl');
    await fs.writeFile(file, `${SAMPLE_TRANSCRIPT}\n`);
    expect((await harness(['ingest', file, '--granularity', 'turn', '--wait', '20', '--json'])).json()).toMatchObject({ confirmed: 8 });

    const { facts, prompt } = await recall('what does the team use for installs');
    const cited = facts.find((fact) => fact.fact.includes('pnpm'));
    const episode = emulator.state.episodes().find((item) => item.content.includes('The team uses pnpm for installs.') && item.group_id.startsWith('gm_workspace_'));
    expect(cited?.sources).toEqual([
      { tool: 'graphiti-harness', session: expect.any(String) as unknown, title: 'The team uses pnpm for installs.', at: expect.stringMatching(/^2025-03-01T10:00:00/) as unknown, episode: episode?.uuid },
    ]);
    expect(prompt).toMatch(/pnpm[^\n]*\(graphiti-harness, 2025-03-01\)/);

    const forgotten = await harness(['forget', '--episode', episode?.uuid ?? '', '--yes', '--json']);
    expect(forgotten.exitCode).toBe(0);
    expect(forgotten.json()).toMatchObject({ ok: true, episode: episode?.uuid, face });
    expect(emulator.state.episodes().map((item) => item.uuid)).not.toContain(episode?.uuid);
    // Every copy: the session group's too (issue 29), counted as deleted.
    expect(emulator.state.episodes().filter((item) => item.content.includes('The team uses pnpm for installs.'))).toEqual([]);
    const deleted = forgotten.json()['deletedEpisodes'] as Array<{ groupId: string }>;
    expect(deleted.map((copy) => copy.groupId.replace(/_[0-9a-f]+$/, '')).sort()).toEqual(['gm_session', 'gm_workspace']);
    expect(emulator.state.facts().filter((fact) => fact.fact.includes('pnpm for installs'))).toEqual([]);
    if (face === 'mcp') expect(forgotten.json()['deletedFacts']).toBeNull();
    else expect((forgotten.json()['deletedFacts'] as string[]).length).toBeGreaterThanOrEqual(2);
    expect(forgotten.out ?? '').not.toContain('16 facts');
    expect(emulator.state.facts().some((fact) => fact.uuid === cited?.uuid)).toBe(false);
    expect((await recall('what does the team use for installs')).facts.some((fact) => fact.uuid === cited?.uuid)).toBe(false);
  });

  it('marks a fact naming a deleted workspace file, none naming an existing one, and drops it with recall.stale drop', async () => {
    const workspace = path.join(folder, 'workspace');
    await fs.mkdir(path.join(workspace, 'src'), { recursive: true });
    await fs.writeFile(path.join(workspace, 'src', 'lexer.ts'), 'export {};\n');
    const file = path.join(folder, 'paths.jsonl');
    const lines = [
      { role: 'user', content: 'The old parser lives in src/legacy.ts now', timestamp: '2026-11-20T10:00:00Z' },
      { role: 'user', content: 'The lexer lives in src/lexer.ts now', timestamp: '2026-11-20T10:01:00Z' },
    ];
    await fs.writeFile(file, `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
    expect((await harness(['ingest', file, '--granularity', 'turn', '--wait', '20', '--json'])).exitCode).toBe(0);

    const marked = await recall('where does the parser and the lexer live');
    const byPath = (name: string) => marked.facts.find((fact) => fact.fact.includes(name));
    expect(byPath('src/legacy.ts')?.stale).toEqual(['src/legacy.ts']);
    expect(byPath('src/lexer.ts')?.stale).toEqual([]);
    expect(marked.prompt).toContain('(may be stale: src/legacy.ts is gone)');
    expect(marked.prompt).not.toContain('src/lexer.ts is gone');

    // A project file may make the check stricter without being trusted.
    await fs.writeFile(path.join(workspace, '.graphiti-memory.json'), JSON.stringify({ recall: { stale: 'drop' } }));
    const dropped = await recall('where does the parser and the lexer live');
    expect(dropped.facts.some((fact) => fact.fact.includes('src/legacy.ts'))).toBe(false);
    expect(dropped.facts.some((fact) => fact.fact.includes('src/lexer.ts'))).toBe(true);
  });
});
