// The key of the user scope, one for every tool on this machine, so that "user" memories are one
// group whether the extension, graphiti-harness or an agent hook writes them. Decided once: the key
// in the user config (`userKey` in graphiti-memory/config.json, where every tool reads it) is THE
// key. Only when there is none yet does the extension adopt one — derived from the account VS Code
// is signed in to (asked for silently, hashed: the account id is never sent), else the key this VS
// Code used before, else a new one — writing it there. Set User Memory Key writes the shared key.
// The key in force is put where memory-core's resolver reads it.
import { createHash, randomUUID } from 'node:crypto';
import { inject, injectable } from 'inversify';
import * as vscode from 'vscode';
import { GlobalStore, USER_KEY_STORAGE_KEY, type KeyValueStore, type MemoryGate, type UserKeyReadiness } from '@graphiti-memory/memory-core';
import { SharedUserKeyStore, USER_KEY_PATTERN } from './shared-user-key-store.js';

export type UserKeySource = 'set' | 'account' | 'shared';

export interface UserKeyResolution {
  readonly key: string;
  readonly source: UserKeySource;
}

/** Marks that the user set the key themselves: then it is kept even when signed in to an account. */
export const USER_KEY_SET_BY_USER = 'graphiti-memory.userKeySetByUser';

/** Accounts asked for, in order, with the scopes sessions of them commonly have (GitHub Copilot's among them). */
const ACCOUNT_SESSIONS: readonly { readonly providerId: string; readonly prefix: string; readonly scopes: readonly string[] }[] = [
  { providerId: 'github', prefix: 'gh', scopes: ['read:user'] },
  { providerId: 'github', prefix: 'gh', scopes: ['user:email'] },
  { providerId: 'microsoft', prefix: 'ms', scopes: ['openid', 'profile'] },
];

/** `gh_<40 hex>`: a one-way hash of the provider and account id; the account itself never leaves VS Code. */
export function accountUserKey(prefix: string, providerId: string, accountId: string): string {
  const digest = createHash('sha256').update(`graphiti-memory.user-key\n${providerId}\n${accountId}`).digest('hex');
  return `${prefix}_${digest.slice(0, 40)}`;
}

@injectable()
export class UserMemoryKey {
  #resolving: Promise<UserKeyResolution> | undefined;
  // Lookups and Set run one after another, so a lookup that started first cannot overwrite a key just set.
  #last: Promise<unknown> = Promise.resolve();

  constructor(
    @inject(GlobalStore) private readonly globalStore: KeyValueStore,
    @inject(SharedUserKeyStore) private readonly shared: SharedUserKeyStore,
  ) {}

  /** Finds the key in force and hands it to the resolver. One lookup at a time. */
  resolve(): Promise<UserKeyResolution> {
    this.#resolving ??= this.#serial(() => this.#resolve()).finally(() => (this.#resolving = undefined));
    return this.#resolving;
  }

  #serial<T>(run: () => Promise<T>): Promise<T> {
    const next = this.#last.catch(() => undefined).then(run);
    this.#last = next;
    return next;
  }

  /** Sets the key (from another machine); returns a problem text, naming what is wrong, when it is not valid. */
  set(key: string): Promise<string | undefined> {
    return this.#serial(() => this.#set(key));
  }

  async #set(key: string): Promise<string | undefined> {
    const trimmed = key.trim();
    if (!USER_KEY_PATTERN.test(trimmed)) {
      return `A user memory key is 8 to 128 letters, digits, _ or - (this one has ${trimmed.length} characters). Copy it with "Graphiti Memory: Copy User Memory Key" on the other machine.`;
    }
    try {
      await this.shared.write(trimmed);
    } catch (error) {
      return `${error instanceof Error ? error.message : String(error)}. Check that the user config folder is writable.`;
    }
    await this.globalStore.set(USER_KEY_SET_BY_USER, true);
    await this.#apply(trimmed);
    return undefined;
  }

  async #resolve(): Promise<UserKeyResolution> {
    const sharedKey = await this.#readShared();
    if (sharedKey !== undefined) {
      if (this.globalStore.get<boolean>(USER_KEY_SET_BY_USER) === true) return this.#apply(sharedKey, 'set');
      // The account only names where the key came from; it never replaces the shared key.
      return this.#apply(sharedKey, (await accountKey()) === sharedKey ? 'account' : 'shared');
    }
    // No key yet: adopt one and write it where the harness and agent hooks read it.
    const account = await accountKey();
    if (account !== undefined) {
      await this.#writeShared(account);
      return this.#apply(account, 'account');
    }
    // The key this VS Code used before (its user memories stay reachable), else a new one.
    const previous = this.globalStore.get<unknown>(USER_KEY_STORAGE_KEY);
    const key = typeof previous === 'string' && USER_KEY_PATTERN.test(previous) ? previous : randomUUID();
    await this.#writeShared(key);
    return this.#apply(key, 'shared');
  }

  async #apply(key: string, source: UserKeySource = 'set'): Promise<UserKeyResolution> {
    if (this.globalStore.get<unknown>(USER_KEY_STORAGE_KEY) !== key) await this.globalStore.set(USER_KEY_STORAGE_KEY, key);
    return { key, source };
  }

  async #readShared(): Promise<string | undefined> {
    try {
      const key = await this.shared.read();
      return key !== undefined && USER_KEY_PATTERN.test(key) ? key : undefined;
    } catch {
      return undefined;
    }
  }

  async #writeShared(key: string): Promise<void> {
    try {
      await this.shared.write(key);
    } catch {
      // Not shared this time: this VS Code still uses the key, a later run shares it.
    }
  }
}

/** A hashed key from the first account VS Code has a session for, without prompting; `undefined` when none. */
async function accountKey(): Promise<string | undefined> {
  for (const candidate of ACCOUNT_SESSIONS) {
    try {
      const session = await vscode.authentication.getSession(candidate.providerId, candidate.scopes, { silent: true });
      if (session !== undefined) return accountUserKey(candidate.prefix, candidate.providerId, session.account.id);
    } catch {
      // A provider that is missing or fails: try the next one, else fall back to the shared key.
    }
  }
  return undefined;
}

/**
 * memory-core's resolver waits on this before deriving a person's groups: the first lookup of the key
 * in force once memory is on (never while it is off: no account lookup then), remembered after that.
 */
export function userKeyReadiness(userKey: Pick<UserMemoryKey, 'resolve'>, gate: Pick<MemoryGate, 'evaluate'>): UserKeyReadiness {
  let settled: Promise<void> | undefined;
  return {
    whenReady: () => {
      if (settled !== undefined) return settled;
      if (!gate.evaluate().open) return Promise.resolve();
      settled = userKey.resolve().then(
        () => undefined,
        () => undefined,
      );
      return settled;
    },
  };
}
