// `filter` in the configuration files: a preset name or per-kind modes over a preset, checked with
// the file, the key and the allowed values named; a project file may only keep less of each kind
// (full > summary > omit) until the user trusts it, and each wider kind is named.
import { promises as fs } from 'node:fs';
import { resolveTranscriptFilter } from '@graphiti-memory/memory-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { configFolders, type ConfigFolders } from '../../test-support/config-folders.js';
import { configurationLines } from './config-entries.js';
import { readConfigFile } from './config-file.js';
import { memorySettingsFor } from './memory-settings-for.js';
import { narrowedFilter } from './project-narrowing.js';

let folders: ConfigFolders;
let projectFile: string;
const resolveWith = (project: unknown, user?: unknown) => folders.resolveWith(project, user);

beforeEach(async () => {
  folders = await configFolders('filter-setting-');
  ({ projectFile } = folders);
});

async function problemsOf(project: unknown): Promise<readonly string[]> {
  await fs.writeFile(projectFile, JSON.stringify(project));
  const read = await readConfigFile(projectFile);
  return read.ok ? [] : read.problems;
}

describe('filter in the configuration files', () => {
  it('takes per-kind modes over a preset from the user file, shows them, and hands them to memory-core', async () => {
    const filter = { preset: 'compact', assistant: 'summary', code: 'omit' };
    const config = await resolveWith({}, { filter });
    expect(config.settings.filter).toEqual(filter);
    expect(config.filter).toEqual(filter);
    expect(config.origins.filter).toBe('user');
    expect(configurationLines(config).find((line) => line.startsWith('filter'))).toContain(JSON.stringify(filter));
    expect(resolveTranscriptFilter(memorySettingsFor(config).filter)).toMatchObject({ assistant: 'summary', code: 'omit', toolCalls: 'summary', user: 'full' });
  });

  it('still takes a preset name, and defaults to compact in memory-core', async () => {
    expect((await resolveWith({}, { filter: 'conversation' })).settings.filter).toBe('conversation');
    const unset = await resolveWith({}, {});
    expect(unset.settings.filter).toBeUndefined();
    expect(memorySettingsFor(unset).filter).toBe('compact');
  });

  it('names the file, the key and the nearest kind for a misspelt kind', async () => {
    expect(await problemsOf({ filter: { asistant: 'summary' } })).toEqual([`${projectFile}: unknown key \`filter.asistant\`; did you mean \`filter.assistant\`?`]);
  });

  it('names the file, the key and the allowed values for a bad mode, preset or value', async () => {
    expect(await problemsOf({ filter: { code: 'sumary' } })).toEqual([`${projectFile}: filter.code: must be one of "full", "summary", "omit" (got "sumary")`]);
    expect(await problemsOf({ filter: { preset: 'tiny' } })).toEqual([`${projectFile}: filter.preset: must be one of "full", "compact", "conversation" (got "tiny")`]);
    expect(await problemsOf({ filter: 'compat' })).toEqual([
      `${projectFile}: filter: must be one of "full", "compact", "conversation", or an object of per-kind modes (got "compat")`,
    ]);
    const [wrongType] = await problemsOf({ filter: 5 });
    expect(wrongType).toMatch(new RegExp(`^${projectFile.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: filter: must be a preset \\(full, compact, conversation\\) or an object`));
  });
});

describe('filter in an untrusted project file', () => {
  it('applies a filter that keeps less of every kind', async () => {
    const config = await resolveWith({ filter: { assistant: 'summary', toolResults: 'omit' } });
    expect(config.settings.filter).toEqual({ assistant: 'summary', toolResults: 'omit' });
    expect(config.origins.filter).toBe('project');
    expect(config.ignored).toEqual([]);
  });

  it('keeps the stricter kinds and ignores each wider one, naming it', async () => {
    // Below: compact with the assistant summarised. The project keeps code whole (wider) and omits tool results (stricter).
    const config = await resolveWith({ filter: { preset: 'compact', code: 'full', toolResults: 'omit' } }, { filter: { assistant: 'summary' } });
    expect(resolveTranscriptFilter(config.settings.filter)).toEqual({ user: 'full', assistant: 'summary', code: 'summary', toolCalls: 'summary', toolResults: 'omit', thinking: 'omit' });
    expect(config.origins.filter).toBe('project');
    expect(config.ignored).toEqual([
      { file: projectFile, key: 'filter.assistant', why: expect.stringContaining('may only keep less of `assistant` (full, then summary, then omit; below: summary)') as unknown },
      { file: projectFile, key: 'filter.code', why: expect.stringContaining(`below: summary); ignored until you trust this file (\`graphiti-harness config trust ${projectFile}\`)`) as unknown },
    ]);
  });

  it('leaves the filter below in force when the project only widens it', async () => {
    const config = await resolveWith({ filter: 'full' }, { filter: { preset: 'compact', code: 'omit' } });
    expect(config.settings.filter).toEqual({ preset: 'compact', code: 'omit' });
    expect(config.origins.filter).toBe('user');
    expect(config.ignored.map((entry) => entry.key)).toEqual(['filter.code', 'filter.toolCalls', 'filter.toolResults', 'filter.thinking']);
  });

  it('orders the modes per kind: full > summary > omit', () => {
    expect(narrowedFilter({ code: 'omit' }, 'compact').widened).toEqual([]);
    expect(narrowedFilter({ code: 'summary' }, { code: 'omit' }).widened.map((entry) => entry.kind)).toEqual(['code']);
    expect(narrowedFilter('conversation', 'compact').widened.map((entry) => entry.kind)).toEqual(['code']);
    expect(narrowedFilter('compact', undefined)).toEqual({ filter: 'compact', widened: [] });
  });
});
