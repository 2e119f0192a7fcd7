/**
 * Mapping: `turnToMessages(turn, options)` turns a finalized chat turn into a user and (when
 * present) an assistant message — stable names `<app>.turn.<turnId>.user|assistant`, ISO
 * timestamps, `role` set, no `uuid`, content over `maxMessageChars` cut with a visible
 * `… [truncated N characters]` marker, git branch/commit/dirty (never a path) in
 * `source_description` when enabled, the system prompt only when enabled.
 */
export { truncateText, truncationMarker } from './truncation.js';
export {
  APP_NAME,
  isoTimestamp,
  parseTurnMessageName,
  sanitiseTurnId,
  sourceDescription,
  turnMessageName,
  turnToMessages,
  type TurnMappingOptions,
  type TurnMessageName,
} from './turn-mapping.js';
