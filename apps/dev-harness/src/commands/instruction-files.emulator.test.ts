// `export` and `import-instructions` in-process against the emulator over HTTP (not Graphiti): the
// generated section of AGENTS.md keeps the hand-written text around it byte for byte, a second
// export changes nothing, `--check` fails after a new promotion, a secret in a memory never reaches
// the file; importing a CLAUDE.md twice sends each line once, a changed line supersedes its memory,
// a removed line's memory is forgotten, and a forget (of the workspace, of one source) lets a later
// import send what it deleted again.
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { GraphitiClient } from '@graphiti-memory/graphiti-client';
import { formatPromotionEpisode } from '@graphiti-memory/memory-core/episode-format';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { closeEmulatorCommands, openEmulatorCommands, runCommand, type EmulatorCommandsFixture } from '../test-support/emulator-commands.js';

let fixture: EmulatorCommandsFixture;
const run = (...args: string[]) => runCommand(fixture.folder, [...args, '--endpoint', fixture.emulator.url]);
const workspaceFile = (name: string): string => path.join(fixture.folder, 'workspace', name);

beforeEach(async () => {
  fixture = await openEmulatorCommands('harness-export-');
});
afterEach(async () => {
  await closeEmulatorCommands(fixture);
});

async function promote(text: string, kind: string): Promise<{ groupId: string }> {
  const promoted = await run('promote', text, '--kind', kind, '--scope', 'workspace', '--json');
  expect(promoted.exitCode, promoted.err).toBe(0);
  return promoted.json() as { groupId: string };
}

const today = new Date().toISOString().slice(0, 10);

describe('export', () => {
  it('writes the curated memories between the markers, keeps the text around them byte for byte, and a second export changes nothing', async () => {
    await promote('Use zod for every schema.', 'decision');
    await promote('Run pnpm test before pushing.', 'procedure');
    await promote('The tier is the local memory cache.', 'terminology');
    const before = '# Agents\r\n\nHand-written  rules stay   as they are.\n\n';
    const after = '\n## Later\nmore hand-written text, no final newline';
    await fs.writeFile(workspaceFile('AGENTS.md'), `${before}<!-- graphiti-memory:start -->\nstale\n<!-- graphiti-memory:end -->\n${after}`);

    const first = await run('export', '--to', 'agents-md', '--json');
    expect(first.exitCode, first.err).toBe(0);
    expect(first.json()).toMatchObject({ changed: true, memories: 3, source: 'graphiti' });
    const written = await fs.readFile(workspaceFile('AGENTS.md'), 'utf8');
    expect(written.startsWith(before)).toBe(true);
    expect(written.endsWith(after)).toBe(true);
    // The file has a CRLF line, so the section is written with CRLF; the text around it keeps its own.
    const section = written.slice(before.length, written.length - after.length);
    expect(section.startsWith('<!-- graphiti-memory:start -->\r\n')).toBe(true);
    expect(section.endsWith('<!-- graphiti-memory:end -->\r\n')).toBe(true);
    expect(section).toContain(`### Decisions\r\n\r\n- Use zod for every schema. (${today})`);
    expect(section).toContain(`### Procedures\r\n\r\n- Run pnpm test before pushing. (${today})`);
    expect(section).toContain(`### Terminology\r\n\r\n- The tier is the local memory cache. (${today})`);
    expect(written).not.toContain('stale');

    const stat = await fs.stat(workspaceFile('AGENTS.md'));
    const second = await run('export', '--to', 'agents-md', '--json');
    expect(second.json()).toMatchObject({ changed: false, upToDate: true });
    expect(await fs.readFile(workspaceFile('AGENTS.md'), 'utf8')).toBe(written);
    expect((await fs.stat(workspaceFile('AGENTS.md'))).mtimeMs).toBe(stat.mtimeMs);

    expect((await run('export', '--to', 'agents-md', '--check')).exitCode).toBe(0);
    await promote('Prefer named exports.', 'preference');
    const stale = await run('export', '--to', 'agents-md', '--check');
    expect(stale.exitCode).toBe(1);
    expect(stale.err).toContain('out of date');
    expect(await fs.readFile(workspaceFile('AGENTS.md'), 'utf8')).toBe(written);
  }, 120_000);

  it('creates .github/copilot-instructions.md when missing, and never writes a memory holding a secret', async () => {
    const { groupId } = await promote('Releases are cut from main.', 'decision');
    // A promotion episode holding a token, written to the workspace group by another client.
    const token = `ghp_${'a1B2c3D4e5'.repeat(3)}Zy9Xw8`;
    const text = `Deploy with token ${token} from the vault.`;
    const client = new GraphitiClient({ baseUrl: fixture.emulator.url, maxRetries: 0 });
    await client.addMessages({
      group_id: groupId,
      messages: [
        {
          name: `graphiti-memory.promotion.${createHash('sha256').update(`procedure\nworkspace\n${text}`).digest('hex').slice(0, 32)}`,
          role: null,
          role_type: 'system',
          content: formatPromotionEpisode({ kind: 'procedure', scope: 'workspace', text, at: new Date() }),
        },
      ],
    });
    await fixture.emulator.idle();
    // It is in the workspace group as a promotion: only the product's guard keeps it out of the file.
    expect((await client.getEpisodes(groupId, { lastN: 20 })).some((episode) => episode.content.includes(token))).toBe(true);
    await client.close();
    const exported = await run('export', '--to', 'copilot-instructions', '--json');
    expect(exported.exitCode, exported.err).toBe(0);
    const written = await fs.readFile(workspaceFile(path.join('.github', 'copilot-instructions.md')), 'utf8');
    expect(written).toContain('Releases are cut from main.');
    expect(written).not.toContain(token);
    expect(written).not.toContain('Deploy with token');
  }, 120_000);

  it('refuses a file with broken markers and leaves it as it was', async () => {
    const broken = 'keep\n<!-- graphiti-memory:start -->\nno end\n';
    await fs.writeFile(workspaceFile('CLAUDE.md'), broken);
    const exported = await run('export', '--to', 'claude-md');
    expect(exported.exitCode).toBe(1);
    expect(exported.err).toContain('<!-- graphiti-memory:end -->');
    expect(await fs.readFile(workspaceFile('CLAUDE.md'), 'utf8')).toBe(broken);
  }, 60_000);
});

describe('import-instructions', () => {
  const postedMessages = (): string[] =>
    fixture.emulator.requests.filter((request) => request.route === 'messages').flatMap((request) => ((request.body as { messages?: Array<{ content: string }> }).messages ?? []).map((message) => message.content));

  it('sends each bullet and heading line of a CLAUDE.md once, citing file and line; a changed line supersedes its memory', async () => {
    const claude = ['# Project rules', '', '## Testing', '- Run pnpm test before pushing.', '', 'Prose is not imported.', '', '## Glossary', '- **Tier**: the local memory cache', ''].join('\n');
    await fs.writeFile(workspaceFile('CLAUDE.md'), claude);
    const first = await run('import-instructions', '--json');
    expect(first.exitCode, first.err).toBe(0);
    expect(first.json()).toMatchObject({ files: [{ lines: 5, sent: 5, unchanged: 0 }] });
    const sent = postedMessages();
    expect(sent.filter((content) => content.includes('Run pnpm test before pushing. (CLAUDE.md:4)'))).toHaveLength(1);
    expect(sent.some((content) => content.includes('kind="procedure"') && content.includes('Run pnpm test'))).toBe(true);
    expect(sent.some((content) => content.includes('kind="terminology"') && content.includes('**Tier**: the local memory cache (CLAUDE.md:9)'))).toBe(true);
    expect(sent.some((content) => content.includes('Prose is not imported'))).toBe(false);

    const again = await run('import-instructions', 'CLAUDE.md', '--json');
    expect(again.json()).toMatchObject({ files: [{ lines: 5, sent: 0, unchanged: 5, superseded: 0 }] });
    expect(postedMessages()).toHaveLength(sent.length);

    await fs.writeFile(workspaceFile('CLAUDE.md'), claude.replace('Run pnpm test before pushing.', 'Run pnpm test and pnpm lint before pushing.'));
    const changed = await run('import-instructions', '--json');
    expect(changed.exitCode, changed.err).toBe(0);
    expect(changed.json()).toMatchObject({ files: [{ sent: 0, unchanged: 4, superseded: 1 }] });
    const client = new GraphitiClient({ baseUrl: fixture.emulator.url, maxRetries: 0 });
    const groupId = (await run('loops', 'list', '--json')).json()['groupId'] as string;
    const episodes = await client.getEpisodes(groupId, { lastN: 50 });
    await client.close();
    expect(episodes.some((episode) => episode.content.includes('Run pnpm test and pnpm lint before pushing. (CLAUDE.md:4)'))).toBe(true);
    expect(episodes.some((episode) => episode.content.includes('Run pnpm test before pushing.'))).toBe(false);
  }, 120_000);

  it("forgets the memory of a line removed from the file, and keeps the others'", async () => {
    const claude = ['## Testing', '- Run pnpm test before pushing.', '- Never commit to main directly.', ''].join('\n');
    await fs.writeFile(workspaceFile('CLAUDE.md'), claude);
    expect((await run('import-instructions', '--json')).json()).toMatchObject({ files: [{ sent: 3 }] });
    const groupId = (await run('loops', 'list', '--json')).json()['groupId'] as string;
    const stored = (): string[] => fixture.emulator.state.episodes().filter((episode) => episode.group_id === groupId).map((episode) => episode.content);
    expect(stored().some((content) => content.includes('Never commit to main directly.'))).toBe(true);

    await fs.writeFile(workspaceFile('CLAUDE.md'), claude.replace('- Never commit to main directly.\n', ''));
    const removed = await run('import-instructions', '--json');
    expect(removed.exitCode, removed.err).toBe(0);
    expect(removed.json()).toMatchObject({ files: [{ sent: 0, unchanged: 2, removed: 1, forgotten: 1 }] });
    expect(stored().some((content) => content.includes('Never commit to main directly.'))).toBe(false);
    expect(stored().some((content) => content.includes('Run pnpm test before pushing. (CLAUDE.md:2)'))).toBe(true);
    // Out of the local tier too: the brief no longer says it.
    const brief = await run('recall', 'commit to main', '--json');
    expect(brief.out).not.toContain('Never commit to main directly.');
    // Said once: the next import has nothing left to forget.
    expect((await run('import-instructions', '--json')).json()).toMatchObject({ files: [{ sent: 0, unchanged: 2, removed: 0 }] });
  }, 120_000);

  it('a forget of the workspace, or of one imported memory, lets a later import send those lines again', async () => {
    await fs.writeFile(workspaceFile('CLAUDE.md'), ['- Run pnpm test before pushing.', '- Use conventional commits.', ''].join('\n'));
    expect((await run('import-instructions', '--json')).json()).toMatchObject({ files: [{ sent: 2 }] });
    const groupId = (await run('loops', 'list', '--json')).json()['groupId'] as string;
    const conventional = fixture.emulator.state.episodes().find((episode) => episode.group_id === groupId && episode.content.includes('Use conventional commits.'));
    expect(conventional).toBeDefined();

    const forgotOne = await run('forget', '--episode', conventional!.uuid, '--group', groupId, '--yes', '--json');
    expect(forgotOne.exitCode, forgotOne.err).toBe(0);
    expect((await run('import-instructions', '--json')).json()).toMatchObject({ files: [{ sent: 1, unchanged: 1 }] });

    const forgotAll = await run('forget', '--scope', 'workspace', '--yes', '--json');
    expect(forgotAll.exitCode, forgotAll.err).toBe(0);
    expect((await run('import-instructions', '--json')).json()).toMatchObject({ files: [{ sent: 2, unchanged: 0 }] });
  }, 120_000);

  it('never imports the generated section back', async () => {
    await fs.writeFile(workspaceFile('AGENTS.md'), '- Hand-written rule.\n<!-- graphiti-memory:start -->\n- Generated line.\n<!-- graphiti-memory:end -->\n');
    const imported = await run('import-instructions', '--json');
    expect(imported.json()).toMatchObject({ files: [{ lines: 1, sent: 1 }] });
    expect(postedMessages().some((content) => content.includes('Generated line'))).toBe(false);
  }, 60_000);
});
