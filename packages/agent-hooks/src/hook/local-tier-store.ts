// The local tier on disk: one file per endpoint and workspace group (memory-node-storage's layout),
// changed under a cross-process lock and rewritten atomically, so hook requests served at once,
// the drainer and a CLI command never lose each other's changes. Every tool that promotes, approves
// or forgets calls it, so the next SessionStart brief says what memory holds now, even offline.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { normaliseEndpoint, type PromotionScope } from '@graphiti-memory/memory-core';
import { LockedJsonFile, sharedStateFiles, tierFile } from '@graphiti-memory/memory-node-storage';
import {
  emptyTier,
  isBriefKind,
  parseTier,
  withoutGroups,
  withPromotion,
  withRecalledFacts,
  withRefresh,
  type LocalTier,
  type TierFact,
  type TierRefresh,
} from './local-tier.js';

/** A promotion as a command knows it when it queues one (`kind` may be any promotion kind; only brief kinds are kept). */
export interface NewTierPromotion {
  readonly kind: string;
  readonly scope: PromotionScope;
  readonly text: string;
  /** ISO 8601; now when absent. */
  readonly createdAt?: string;
  /** The group the promotion is sent to. */
  readonly groupId: string;
  /** The message name the promotion is sent under (`graphiti-memory.promotion.<hash>`). */
  readonly episodeName: string;
}

const TIER_FILE_NAME = /^[0-9a-f]{24}\.json$/;
/** How long a hook waits for its tier write before answering (the write goes on; the tier is a cache). */
const HOOK_WRITE_BOUND_MS = 150;

/** Waits for a tier write at most briefly, and never fails: for hooks, which answer under a deadline. */
export async function boundedTierWrite(write: Promise<unknown>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([write.catch(() => undefined), new Promise((resolve) => (timer = setTimeout(resolve, HOOK_WRITE_BOUND_MS)))]);
  clearTimeout(timer);
}

export class LocalTierStore {
  constructor(
    readonly stateDirectory: string,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** The tier of a workspace group at an endpoint; `undefined` when there is none (or it is unreadable). */
  async read(endpoint: string, workspaceGroup: string): Promise<LocalTier | undefined> {
    const key = tierKey(endpoint, workspaceGroup);
    return this.file(key).read().catch(() => undefined);
  }

  /**
   * Records a promotion just queued, so the next brief shows it before Graphiti has stored it (or
   * while Graphiti is down). A user-scope promotion goes into every tier of the endpoint.
   */
  async addPromotion(endpoint: string, workspaceGroup: string, promotion: NewTierPromotion): Promise<void> {
    const { kind } = promotion;
    if (!isBriefKind(kind)) return;
    const entry = { kind, scope: promotion.scope, text: promotion.text.trim(), createdAt: validTime(promotion.createdAt) ?? this.now().toISOString(), groupId: promotion.groupId, episodeName: promotion.episodeName };
    const key = tierKey(endpoint, workspaceGroup);
    const others = promotion.scope === 'user' ? (await this.tiersAt(key.endpoint)).filter((group) => group !== key.workspaceGroup) : [];
    for (const target of [key, ...others.map((group) => ({ endpoint: key.endpoint, workspaceGroup: group }))]) {
      await this.update(target, (tier) => withPromotion(tier, entry, this.now()));
    }
  }

  /** Adds facts a recall returned; `fetchedAt`: when that recall started. */
  async addRecalledFacts(endpoint: string, workspaceGroup: string, facts: readonly TierFact[], fetchedAt: Date): Promise<void> {
    await this.update(tierKey(endpoint, workspaceGroup), (tier) => withRecalledFacts(tier, facts, this.now(), fetchedAt));
  }

  /** Writes what a refresh read from Graphiti (see `withRefresh`). */
  async saveRefresh(endpoint: string, workspaceGroup: string, refresh: TierRefresh): Promise<LocalTier> {
    return this.update(tierKey(endpoint, workspaceGroup), (tier) => withRefresh(tier, refresh, this.now()));
  }

  /**
   * Forgets groups at an endpoint: their entries leave every tier of that endpoint, and the tier of
   * a forgotten workspace group is emptied (it keeps only the note of the forget, so a refresh that
   * was reading meanwhile cannot write the group back). Tier files of the old format, which do not
   * say their endpoint, and unreadable leftovers are deleted: they are a cache.
   */
  async forgetGroups(endpoint: string, groupIds: readonly string[]): Promise<void> {
    if (groupIds.length === 0) return;
    const normalised = normaliseEndpoint(endpoint) ?? endpoint;
    const directory = sharedStateFiles(this.stateDirectory).tierDirectory;
    const names = await fs.readdir(directory).catch(() => [] as string[]);
    for (const name of names) {
      const file = path.join(directory, name);
      if (name.endsWith('.json.corrupt')) {
        await fs.rm(file, { force: true });
        continue;
      }
      if (!TIER_FILE_NAME.test(name)) continue;
      const raw = await readJson(file);
      if (!isTierOf(raw, normalised)) {
        if (raw === undefined || !('endpoint' in raw)) await fs.rm(file, { force: true });
        continue;
      }
      await this.update({ endpoint: normalised, workspaceGroup: raw.workspaceGroup }, (tier) => withoutGroups(tier, groupIds, this.now()));
    }
  }

  private async update(key: TierKey, change: (tier: LocalTier) => LocalTier): Promise<LocalTier> {
    return this.file(key).update((current) => {
      const next = change(current ?? emptyTier(key.endpoint, key.workspaceGroup, this.now()));
      return { next, result: next };
    });
  }

  private file(key: TierKey): LockedJsonFile<LocalTier | undefined> {
    // A cache: a change lost to a power cut is refetched, so no hook waits for the disk's flush.
    return new LockedJsonFile(tierFile(this.stateDirectory, key.endpoint, key.workspaceGroup), (raw) => parseTier(raw, key.endpoint, key.workspaceGroup), undefined, { fsync: false });
  }

  /** The workspace groups with a tier at this endpoint. */
  private async tiersAt(endpoint: string): Promise<string[]> {
    const directory = sharedStateFiles(this.stateDirectory).tierDirectory;
    const names = (await fs.readdir(directory).catch(() => [] as string[])).filter((name) => TIER_FILE_NAME.test(name));
    const groups: string[] = [];
    for (const name of names) {
      const raw = await readJson(path.join(directory, name));
      if (isTierOf(raw, endpoint)) groups.push(raw.workspaceGroup);
    }
    return groups;
  }
}

interface TierKey {
  readonly endpoint: string;
  readonly workspaceGroup: string;
}

function tierKey(endpoint: string, workspaceGroup: string): TierKey {
  return { endpoint: normaliseEndpoint(endpoint) ?? endpoint, workspaceGroup };
}

function validTime(value: unknown): string | undefined {
  return typeof value === 'string' && !Number.isNaN(Date.parse(value)) ? value : undefined;
}

async function readJson(file: string): Promise<Record<string, unknown> | undefined> {
  try {
    const parsed = JSON.parse(await fs.readFile(file, 'utf8')) as unknown;
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function isTierOf(raw: Record<string, unknown> | undefined, endpoint: string): raw is Record<string, unknown> & { workspaceGroup: string } {
  return raw !== undefined && raw['endpoint'] === endpoint && typeof raw['workspaceGroup'] === 'string';
}
