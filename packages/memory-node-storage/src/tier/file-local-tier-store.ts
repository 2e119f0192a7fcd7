// The local tier on disk: one file per endpoint and workspace group in the state folder's `tier/`
// (`tierFile`), changed under a cross-process lock and rewritten atomically, so hook requests
// served at once, the drainer, a CLI command and the extension never lose each other's changes.
// memory-core's `LocalTier` decides what goes in; this only keeps it.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { parseTier, type LocalTierStore, type TierContent, type TierKey } from '@graphiti-memory/memory-core';
import { sharedStateFiles, tierFile } from '../state/state-layout.js';
import { LockedJsonFile } from '../stores/locked-json-file.js';

const TIER_FILE_NAME = /^[0-9a-f]{24}\.json$/;

export class FileLocalTierStore implements LocalTierStore {
  /** `stateDirectory`: the shared state folder, found when the tier is first used (the extension reads its configuration then). */
  constructor(private readonly stateDirectory: () => Promise<string>) {}

  async read(key: TierKey): Promise<TierContent | undefined> {
    return (await this.file(key)).read().catch(() => undefined);
  }

  async update(key: TierKey, change: (current: TierContent | undefined) => TierContent): Promise<TierContent> {
    return (await this.file(key)).update((current) => {
      const next = change(current);
      return { next, result: next };
    });
  }

  /**
   * The workspace groups with a tier at `endpoint`. Tier files of the old format (which do not say
   * their endpoint) and unreadable leftovers are deleted on the way: they are a cache.
   */
  async workspaceGroups(endpoint: string): Promise<string[]> {
    const directory = sharedStateFiles(await this.stateDirectory()).tierDirectory;
    const names = await fs.readdir(directory).catch(() => [] as string[]);
    const groups: string[] = [];
    for (const name of names) {
      const file = path.join(directory, name);
      if (name.endsWith('.json.corrupt')) {
        await fs.rm(file, { force: true });
        continue;
      }
      if (!TIER_FILE_NAME.test(name)) continue;
      const raw = await readJson(file);
      if (raw !== undefined && raw['endpoint'] === endpoint && typeof raw['workspaceGroup'] === 'string') groups.push(raw['workspaceGroup']);
      else if (raw === undefined || !('endpoint' in raw)) await fs.rm(file, { force: true });
    }
    return groups;
  }

  private async file(key: TierKey): Promise<LockedJsonFile<TierContent | undefined>> {
    const file = tierFile(await this.stateDirectory(), key.endpoint, key.workspaceGroup);
    // A cache: a change lost to a power cut is refetched, so no hook waits for the disk's flush.
    return new LockedJsonFile(file, (raw) => parseTier(raw, key.endpoint, key.workspaceGroup), undefined, { fsync: false });
  }
}

async function readJson(file: string): Promise<Record<string, unknown> | undefined> {
  try {
    const parsed = JSON.parse(await fs.readFile(file, 'utf8')) as unknown;
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
