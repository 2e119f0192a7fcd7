// Replays VS Code's chat session mutation log (see vscode-chat-sessions.md), with the semantics
// of VS Code's own reader: kind 0 replaces the state, 1 sets a value at a key path, 2 truncates
// the array at the path to `i` (when given) and then pushes `v`, 3 deletes. Unlike VS Code, an
// entry that cannot be applied is skipped and reported instead of failing the whole file.
import { asRecord } from './json-lines-reader.js';

export type LogPath = readonly (string | number)[];

export type AppliedEntry =
  | { readonly kind: 0 }
  | { readonly kind: 1 | 3; readonly path: LogPath }
  | { readonly kind: 2; readonly path: LogPath; readonly pushed: number };

// Keys that would reach an object's prototype instead of its own properties.
const FORBIDDEN_KEYS = new Set(['__proto__', 'prototype', 'constructor']);

export class ChatSessionLog {
  private root: Record<string, unknown> | undefined;

  /** The session object replayed so far; `undefined` before the first snapshot. */
  get state(): Record<string, unknown> | undefined {
    return this.root;
  }

  /** Applies one log entry; `undefined` when it is not a valid entry or cannot be applied. */
  apply(entry: Record<string, unknown>): AppliedEntry | undefined {
    const kind = entry['kind'];
    if (kind === 0) {
      const snapshot = asRecord(entry['v']);
      if (snapshot === undefined) return undefined;
      this.root = snapshot;
      return { kind: 0 };
    }
    if (this.root === undefined || (kind !== 1 && kind !== 2 && kind !== 3)) return undefined;
    const path = validPath(entry['k']);
    if (path === undefined) return undefined;
    if (path.length === 0) {
      // A set at the root replaces the whole session.
      const replacement = kind === 1 ? asRecord(entry['v']) : undefined;
      if (replacement === undefined) return undefined;
      this.root = replacement;
      return { kind: 0 };
    }
    const parent = this.container(path);
    const last = path[path.length - 1];
    if (parent === undefined || last === undefined) return undefined;
    if (kind === 1 || kind === 3) {
      const value = kind === 1 ? entry['v'] : undefined;
      if (!setProperty(parent, last, value)) return undefined;
      return { kind, path };
    }
    return this.splice(parent, last, path, entry['v'], entry['i']);
  }

  private splice(
    parent: Record<string, unknown> | unknown[],
    key: string | number,
    path: LogPath,
    values: unknown,
    truncateAt: unknown,
  ): AppliedEntry | undefined {
    if (values !== undefined && !Array.isArray(values)) return undefined;
    if (truncateAt !== undefined && !(Number.isInteger(truncateAt) && (truncateAt as number) >= 0)) return undefined;
    const existing = getProperty(parent, key);
    if (existing !== undefined && existing !== null && !Array.isArray(existing)) return undefined;
    const array: unknown[] = Array.isArray(existing) ? existing : [];
    // Truncation beyond the end is a no-op here (VS Code would leave holes: a corrupt log anyway).
    if (typeof truncateAt === 'number' && truncateAt < array.length) array.length = truncateAt;
    for (const value of values ?? []) array.push(value);
    if (!setProperty(parent, key, array)) return undefined;
    return { kind: 2, path, pushed: (values ?? []).length };
  }

  /** The object or array holding the last key of `path`, when every step exists. */
  private container(path: LogPath): Record<string, unknown> | unknown[] | undefined {
    let current: unknown = this.root;
    for (let index = 0; index < path.length - 1; index += 1) {
      const key = path[index];
      if (key === undefined) return undefined;
      current = getProperty(current, key);
    }
    if (Array.isArray(current)) return current;
    return asRecord(current);
  }
}

function validPath(value: unknown): LogPath | undefined {
  if (!Array.isArray(value)) return undefined;
  for (const key of value) {
    if (typeof key === 'number') {
      if (!Number.isInteger(key) || key < 0) return undefined;
    } else if (typeof key !== 'string' || FORBIDDEN_KEYS.has(key)) {
      return undefined;
    }
  }
  return value as LogPath;
}

function getProperty(container: unknown, key: string | number): unknown {
  if (Array.isArray(container)) return typeof key === 'number' ? container[key] : undefined;
  const record = asRecord(container);
  if (record === undefined || !Object.prototype.hasOwnProperty.call(record, key)) return undefined;
  return record[key];
}

function setProperty(container: Record<string, unknown> | unknown[], key: string | number, value: unknown): boolean {
  if (Array.isArray(container)) {
    // Existing items or one past the end only: a huge index would make a huge sparse array.
    if (typeof key !== 'number' || key > container.length) return false;
    container[key] = value;
    return true;
  }
  if (value === undefined) {
    delete container[key];
  } else {
    container[key] = value;
  }
  return true;
}
