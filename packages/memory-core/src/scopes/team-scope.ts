// The team scope's one rule of content: a team group (shared by everyone on the server who works in
// the repository) takes only memories a user promoted, never captured chat, transcripts or context.
// Ingestion applies it to every entry, so no tool and no setting can send raw chat there.
import type { OutboxEntry } from '../ports.js';
import { isPromotionEpisodeName, parseEpisodeBlock } from '../promotion/episode-format.js';

/** Every team group id starts so, whatever the id strategy (`gm_<scope>_…`). */
const TEAM_GROUP_PREFIX = 'gm_team_';

export function isTeamGroupId(groupId: string): boolean {
  return groupId.startsWith(TEAM_GROUP_PREFIX);
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
