/**
 * Scopes and group ids. `DefaultGroupIdResolver` maps `session` (chat session id), `workspace`
 * (git remote when known, else the folder URIs in any order) and `user` (account id, else a random
 * key kept in the GlobalStore under `graphiti-memory.userKey`) to group ids:
 * `hashed` — `gm_<scope>_<32 hex of SHA-256>` (Web Crypto), or `raw` — sanitised into
 * `^[a-zA-Z0-9_-]+$`, at most 128 characters, with a hash suffix when sanitising lost information.
 */
export {
  DefaultGroupIdResolver,
  GroupIdResolver,
  USER_KEY_STORAGE_KEY,
  type ResolvedGroup,
  type ScopeContext,
} from './group-id-resolver.js';
export {
  folderIdentity,
  GROUP_ID_CHARSET,
  GROUP_ID_MAX_LENGTH,
  hashedGroupId,
  normaliseFolderUri,
  normaliseGitRemote,
  rawGroupId,
} from './group-ids.js';
export { sha256Hex } from './sha256.js';
export { isAllowedInGroup, isTeamGroupId } from './team-scope.js';
