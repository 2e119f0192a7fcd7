// Group ids: the names of memory groups on the server. They must match Graphiti's charset
// (anything else kills its worker), stay stable across runs and machines, and never collide for
// different inputs. `hashed` ids reveal nothing of the input; `raw` ids stay readable.
import type { MemoryScope } from '../ports.js';
import { sha256Hex } from './sha256.js';

/** Graphiti's group id charset. */
export const GROUP_ID_CHARSET = /^[a-zA-Z0-9_-]+$/;
/** Longest group id produced (raw ids are capped to it). */
export const GROUP_ID_MAX_LENGTH = 128;
/** Hex characters of SHA-256 kept in a hashed id: 128 bits. */
const HASHED_LENGTH = 32;
/** Hex characters of the hash appended to a raw id that was sanitised or capped: 64 bits. */
const RAW_SUFFIX_LENGTH = 16;
const RAW_SUFFIX = new RegExp(`-h[0-9a-f]{${RAW_SUFFIX_LENGTH}}$`);

/**
 * `gm_<scope>_<first 32 hex of SHA-256(scope + identity)>`: stable, charset-safe and reveals
 * nothing of the identity (a folder path, a remote URL, an account id).
 */
export async function hashedGroupId(scope: MemoryScope, identity: string): Promise<string> {
  requireIdentity('hashedGroupId', identity);
  const digest = await sha256Hex(`graphiti-memory:${scope}:${identity}`);
  return `gm_${scope}_${digest.slice(0, HASHED_LENGTH)}`;
}

/**
 * `gm_<scope>_<identity>` with every run of characters outside `[a-zA-Z0-9_-]` replaced by `_`
 * and the whole capped at 128 characters. When that loses information (a character replaced, the
 * identity cut) `-h<16 hex of SHA-256>` of the original is appended, so two identities that
 * sanitise alike still get different ids.
 */
export async function rawGroupId(scope: MemoryScope, identity: string): Promise<string> {
  requireIdentity('rawGroupId', identity);
  const prefix = `gm_${scope}_`;
  const sanitised = identity.replace(/[^a-zA-Z0-9_-]+/g, '_');
  const lossless = sanitised === identity && !RAW_SUFFIX.test(sanitised);
  if (lossless && prefix.length + sanitised.length <= GROUP_ID_MAX_LENGTH) return prefix + sanitised;
  const suffix = `-h${(await sha256Hex(`graphiti-memory:${scope}:${identity}`)).slice(0, RAW_SUFFIX_LENGTH)}`;
  const room = GROUP_ID_MAX_LENGTH - prefix.length - suffix.length;
  return prefix + sanitised.slice(0, room) + suffix;
}

function requireIdentity(caller: string, identity: string): void {
  if (typeof identity !== 'string' || identity === '') {
    throw new TypeError(`${caller}: identity must be a non-empty string; resolve the scope's identity first.`);
  }
}

/**
 * A folder URI in one spelling for all hosts: scheme and authority lower-cased, percent-escapes
 * decoded, backslashes as `/`, Windows drive letters lower-cased, no trailing slash.
 */
export function normaliseFolderUri(uri: string): string {
  let value = uri.trim().replace(/\\/g, '/');
  try {
    value = decodeURIComponent(value);
  } catch {
    // A stray `%` that is not an escape: keep the text as it is.
  }
  const match = /^([a-zA-Z][a-zA-Z0-9+.-]*):\/\/([^/]*)(.*)$/.exec(value);
  if (match) {
    const [, scheme = '', authority = '', path = ''] = match;
    value = `${scheme.toLowerCase()}://${authority.toLowerCase()}${path.replace(/^\/([a-zA-Z]):/, (_, drive: string) => `/${drive.toLowerCase()}:`)}`;
  }
  return value.replace(/\/+$/, '');
}

/**
 * A git remote in one spelling for every clone of a repository: `https://user@github.com/o/r.git`,
 * `git@github.com:o/r`, `ssh://git@github.com:22/O/R/` and `github.com/o/r` all become `github.com/o/r`.
 */
export function normaliseGitRemote(remote: string): string {
  let value = remote.trim();
  const scpLike = /^(?:[^@/\s]+@)?([^:/\s]+):(?!\/\/)(.+)$/.exec(value);
  if (scpLike && !/^[a-zA-Z][a-zA-Z0-9+.-]*:\/\//.test(value)) {
    value = `${scpLike[1] ?? ''}/${scpLike[2] ?? ''}`;
  } else {
    value = value.replace(/^[a-zA-Z][a-zA-Z0-9+.-]*:\/\//, '').replace(/^[^@/]*@/, '');
  }
  value = value.replace(/\/+$/, '').replace(/\.git$/i, '').replace(/\/+$/, '');
  // A port names the same repository (`ssh://git@host:22/o/r`), and hosts compare paths without
  // case: every host (the extension's git API, `git remote`, a hook) must land on one spelling.
  return value.replace(/^([^/:]+):\d+(?=\/)/, '$1').toLowerCase();
}

/** The workspace's identity from its folders: order-independent, duplicates ignored. */
export function folderIdentity(folderUris: readonly string[]): string | undefined {
  const folders = [...new Set(folderUris.map(normaliseFolderUri).filter((uri) => uri !== ''))].sort();
  return folders.length === 0 ? undefined : folders.join('\n');
}

const SCOPE_OF_GROUP_ID = /^gm_(session|workspace|user|team|mirror)_/;

/** The scope a group id of ours was made for (`gm_<scope>_…`, whatever the strategy); `undefined` for a foreign id. */
export function scopeOfGroupId(groupId: string): MemoryScope | undefined {
  const match = SCOPE_OF_GROUP_ID.exec(groupId);
  return match === null ? undefined : (match[1] as MemoryScope);
}
