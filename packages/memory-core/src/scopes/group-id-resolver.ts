// Which group each scope writes to and reads from. Hashing is asynchronous (Web Crypto), so ids
// are resolved asynchronously once and cached; everything here is off the chat path.
import { inject, injectable, optional } from 'inversify';
import { GlobalStore, WorkspaceContext, type KeyValueStore, type MemoryScope } from '../ports.js';
import { MemoryConfiguration } from '../settings/memory-configuration.js';
import type { GroupIdStrategy } from '../settings/memory-settings.js';
import { folderIdentity, hashedGroupId, normaliseGitRemote, rawGroupId } from './group-ids.js';
import { sha256Hex } from './sha256.js';

/** GlobalStore key of the random user key used when the host has no account id. */
export const USER_KEY_STORAGE_KEY = 'graphiti-memory.userKey';

/**
 * A host whose user key is settled asynchronously (the extension adopts the shared key or one
 * derived from the signed-in account after activation): private groups derive from the user key, so
 * the resolver waits for it once instead of deriving them from a stand-in key meanwhile.
 */
export interface UserKeyReadiness {
  /** Resolves once the key in force is in the GlobalStore (at once when there is nothing to wait for); cheap after that. */
  whenReady(): Promise<void>;
}
export const UserKeyReadiness = Symbol.for('graphiti-memory.UserKeyReadiness');

export interface ScopeContext {
  /** The chat session: required for the `session` scope. */
  readonly sessionId?: string;
}

export interface ResolvedGroup {
  readonly scope: MemoryScope;
  readonly groupId: string;
}

export interface GroupIdResolver {
  /** The group id of `scope`, or `undefined` when it cannot be known (no session id, no workspace). */
  resolve(scope: MemoryScope, context?: ScopeContext): Promise<string | undefined>;
  /** The groups of `scopes` that can be resolved, in the order given. */
  resolveMany(scopes: readonly MemoryScope[], context?: ScopeContext): Promise<ResolvedGroup[]>;
}
export const GroupIdResolver = Symbol.for('graphiti-memory.GroupIdResolver');

/** Keeps the id cache bounded in a long-running host with many sessions. */
const CACHE_LIMIT = 1000;

/**
 * `user` ← the account id when given, else a random key created once and kept in the GlobalStore.
 * `workspace` ← that user identity AND the repository (its normalised git remote, else the sorted,
 * normalised folder URIs), and `session` ← the user identity and the chat session id: both are one
 * person's own, so two people on one server never share them. `team` ← the normalised git remote
 * alone (the same for every clone and every teammate); no remote, no team group. Each identity is
 * tagged with its source, so an account id and a random key can never share a group.
 */
@injectable()
export class DefaultGroupIdResolver implements GroupIdResolver {
  private readonly cache = new Map<string, Promise<string>>();
  private userKey: Promise<string> | undefined;

  constructor(
    @inject(MemoryConfiguration) private readonly configuration: MemoryConfiguration,
    @inject(WorkspaceContext) private readonly workspace: WorkspaceContext,
    @inject(GlobalStore) private readonly globalStore: KeyValueStore,
    @inject(UserKeyReadiness) @optional() private readonly readiness?: UserKeyReadiness,
  ) {}

  async resolve(scope: MemoryScope, context: ScopeContext = {}): Promise<string | undefined> {
    const identity = await this.identityOf(scope, context);
    if (identity === undefined) return undefined;
    return this.groupIdFor(this.configuration.current().groupIdStrategy, scope, identity);
  }

  async resolveMany(scopes: readonly MemoryScope[], context: ScopeContext = {}): Promise<ResolvedGroup[]> {
    const resolved = await Promise.all(
      scopes.map(async (scope) => ({ scope, groupId: await this.resolve(scope, context) })),
    );
    return resolved.filter((group): group is ResolvedGroup => group.groupId !== undefined);
  }

  private async identityOf(scope: MemoryScope, context: ScopeContext): Promise<Identity | undefined> {
    switch (scope) {
      case 'session': {
        const sessionId = context.sessionId?.trim();
        return sessionId ? { source: 'session', value: sessionId, owner: await this.userIdentity() } : undefined;
      }
      // The mirror is the workspace's structure, kept apart: one person in one repository, like it.
      case 'mirror':
      case 'workspace': {
        const repository = this.repositoryIdentity();
        return repository === undefined ? undefined : { ...repository, owner: await this.userIdentity() };
      }
      case 'team': {
        // Only a remote names the repository the same way for every teammate; folders never do.
        const remote = this.normalisedRemote();
        return remote === '' ? undefined : { source: 'git-remote', value: remote };
      }
      case 'user':
        return this.userIdentity();
      default:
        return undefined;
    }
  }

  private normalisedRemote(): string {
    return normalisedRemoteOf(this.workspace.gitRemote());
  }

  private repositoryIdentity(): Identity | undefined {
    return repositoryIdentity({ gitRemote: this.workspace.gitRemote(), folderUris: this.workspace.folderUris() });
  }

  private async userIdentity(): Promise<Identity> {
    // A failed lookup leaves the stored (or a new) key: derivation must not fail with it.
    if (this.readiness !== undefined) await this.readiness.whenReady().catch(() => undefined);
    const account = this.workspace.accountId()?.trim();
    if (account) return { source: 'account', value: account };
    return { source: 'user-key', value: await this.randomUserKey() };
  }

  private groupIdFor(strategy: GroupIdStrategy, scope: MemoryScope, identity: Identity): Promise<string> {
    const owner = identity.owner === undefined ? '' : `${identity.owner.source}:${identity.owner.value}`;
    const cacheKey = `${strategy}\n${scope}\n${identity.source}\n${identity.value}\n${owner}`;
    let groupId = this.cache.get(cacheKey);
    if (groupId === undefined) {
      groupId = groupIdOf(strategy, scope, identity);
      if (this.cache.size >= CACHE_LIMIT) {
        const oldest = this.cache.keys().next().value;
        if (oldest !== undefined) this.cache.delete(oldest);
      }
      this.cache.set(cacheKey, groupId);
    }
    return groupId;
  }

  private randomUserKey(): Promise<string> {
    // Read every time: the host may replace the key (one the user set, one derived from their account).
    const stored = this.globalStore.get<unknown>(USER_KEY_STORAGE_KEY);
    if (typeof stored === 'string' && stored.trim() !== '') return Promise.resolve(stored);
    this.userKey ??= this.loadOrCreateUserKey();
    return this.userKey;
  }

  private async loadOrCreateUserKey(): Promise<string> {
    const stored = this.globalStore.get<unknown>(USER_KEY_STORAGE_KEY);
    if (typeof stored === 'string' && stored.trim() !== '') return stored;
    const created = globalThis.crypto.randomUUID();
    try {
      await this.globalStore.set(USER_KEY_STORAGE_KEY, created);
    } catch {
      // Not persisted: this run still uses one key; a later run may create another.
    }
    return created;
  }
}

/** The repository alone: its normalised git remote, else its sorted, normalised folder URIs. */
export function repositoryIdentity(workspace: { readonly gitRemote?: string | undefined; readonly folderUris: readonly string[] }): Identity | undefined {
  const remote = normalisedRemoteOf(workspace.gitRemote);
  if (remote !== '') return { source: 'git-remote', value: remote };
  const folders = folderIdentity(workspace.folderUris);
  return folders === undefined ? undefined : { source: 'folders', value: folders };
}

function normalisedRemoteOf(remote: string | undefined): string {
  return remote === undefined ? '' : normaliseGitRemote(remote);
}

export interface Identity {
  readonly source: 'session' | 'git-remote' | 'folders' | 'account' | 'user-key';
  readonly value: string;
  /** The person a private group belongs to (`workspace`, `session`). */
  readonly owner?: Identity;
}

/** Hex characters of the owner's hash in a raw id: enough to keep two people apart, not to identify one. */
const RAW_OWNER_TAG_LENGTH = 12;

/** The group id of `scope` for `identity` (with its owner, if any) under `strategy`. */
export async function groupIdOf(strategy: GroupIdStrategy, scope: MemoryScope, identity: Identity): Promise<string> {
  const tagged = `${identity.source}:${identity.value}`;
  const owner = identity.owner === undefined ? undefined : `${identity.owner.source}:${identity.owner.value}`;
  // An account id is never sent as it is, whatever the strategy: only its hash leaves the machine.
  if (strategy === 'hashed' || identity.source === 'account') {
    return hashedGroupId(scope, owner === undefined ? tagged : `owner=${owner}\n${tagged}`);
  }
  if (owner === undefined) return rawGroupId(scope, identity.value);
  // Raw ids stay readable for the repository or session, never for the person: a short hash tags the owner.
  const ownerTag = (await sha256Hex(`graphiti-memory:owner:${owner}`)).slice(0, RAW_OWNER_TAG_LENGTH);
  return rawGroupId(scope, `${identity.value}_u${ownerTag}`);
}
