// The team scope's one rule of content: a team group (shared by everyone on the server who works in
// the repository) takes only memories a user promoted, never captured chat, transcripts or context.
// Ingestion applies it to every entry, so no tool and no setting can send raw chat there.
import type { OutboxEntry } from '../ports.js';
import { isPromotionEpisodeName, parseEpisodeBlock } from '../promotion/episode-format.js';
import { scopeOfGroupId } from './group-ids.js';

export function isTeamGroupId(groupId: string): boolean {
  return scopeOfGroupId(groupId) === 'team';
}

/** Whether `entry` may be sent: anything to a private group; to a team group only a team promotion. */
export function isAllowedInGroup(entry: OutboxEntry): boolean {
  if (!isTeamGroupId(entry.groupId)) return true;
  const { message } = entry;
  return (
    message.role_type === 'system' &&
    typeof message.name === 'string' &&
    isPromotionEpisodeName(message.name) &&
    parseEpisodeBlock(message.content)?.attributes['scope'] === 'team'
  );
}
