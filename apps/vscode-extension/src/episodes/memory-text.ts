// What a memory, a conversation or a fact reads like when a user opens it from the view: plain
// words and the text itself — no uuids, group ids, episode names or `<graphiti_episode>` markup.
// Pure, so the wording is tested on its own.
import type { Episode } from '@graphiti-memory/graphiti-client';
import { parsePromotionEpisode, type TierPromotion } from '@graphiti-memory/memory-core';
import { sanitiseFactText } from '@graphiti-memory/prompt-elements';
import { digestTurnsOf, factDates } from './memory-tree.js';
import type { ShownFact } from './episode-nodes.js';

const SCOPE_WORDS: Record<string, string> = {
  workspace: 'this workspace’s memory',
  user: 'your user memory (every workspace)',
  team: 'the team’s shared memory',
  session: 'this conversation’s memory',
};

/** A scope as people say it. */
export function scopeWords(scope: string): string {
  return SCOPE_WORDS[scope] ?? `${scope} memory`;
}

/** A kind (`lesson_learned`) as a word (`Lesson learned`). */
export function kindWords(kind: string): string {
  const words = kind.replace(/_/g, ' ');
  return `${words.charAt(0).toUpperCase()}${words.slice(1)}`;
}

/** A moment in the local time zone, as people read it. */
export function localDateTime(value: string | number | undefined): string {
  if (value === undefined) return 'an unknown time';
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? 'an unknown time' : date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** Text of an episode without Graphiti's `name(role): ` prefix and without episode markup. */
export function plainText(content: string): string {
  return content
    .replace(/^[^\n(]*\((?:user|assistant|system)\):\s*/, '')
    .replace(/<\/?graphiti_episode[^>]*>/g, '')
    .trim();
}

/** The text a stored memory holds: the promotion's own text, else the episode's plain text. */
export function memoryText(episode: Pick<Episode, 'name' | 'content'>): string {
  return parsePromotionEpisode(episode)?.text ?? plainText(episode.content);
}

/** A curated memory, opened from the view. */
export function memoryDocument(episode: Episode, scope: string): string {
  const promotion = parsePromotionEpisode(episode);
  const kind = promotion === undefined ? 'Memory' : kindWords(promotion.kind);
  return [
    `# ${kind}`,
    '',
    memoryText(episode),
    '',
    `- Kept in: ${scopeWords(scope)}`,
    `- Stored: ${localDateTime(promotion?.recordedAt ?? episode.valid_at)}`,
    ...(promotion?.author === undefined ? [] : [`- Shared by: ${promotion.author}`]),
    '',
    'Change it with **Edit Memory…**, remove it with **Forget This Source** (right-click it in the Graphiti Memory view).',
    '',
  ].join('\n');
}

/** A memory this machine keeps that Graphiti has not shown (yet). */
export function localMemoryDocument(promotion: TierPromotion, state: 'waiting' | 'cached'): string {
  return [
    `# ${kindWords(promotion.kind)}`,
    '',
    promotion.text,
    '',
    `- Kept in: ${scopeWords(promotion.scope)}`,
    `- Saved: ${localDateTime(promotion.createdAt)}${promotion.tool === undefined ? '' : ` by ${promotion.tool}`}`,
    state === 'waiting'
      ? '- Not stored by your Graphiti server yet: it is sent (or waits until the server answers) and shown from the server once stored.'
      : '- Shown from this machine’s copy: your Graphiti server did not answer just now.',
    '',
  ].join('\n');
}

/** A conversation (a session digest, or one turn's messages), opened from the view. */
export function conversationDocument(episodes: readonly Pick<Episode, 'name' | 'content' | 'valid_at'>[], title: string): string {
  const lines = [`# Conversation: ${title}`, ''];
  for (const episode of episodes) {
    const turns = digestTurnsOf(episode);
    lines.push(`_${localDateTime(episode.valid_at)}_`, '');
    if (turns.length === 0) {
      lines.push(quote(plainText(episode.content)), '');
      continue;
    }
    for (const turn of turns) lines.push(quote(turn.text), '');
  }
  return `${lines.join('\n')}\n`;
}

/** A fact whose source the view does not have loaded. */
export function factDocument(fact: ShownFact): string {
  return [
    '# What memory knows',
    '',
    fact.fact,
    '',
    `- Holds: ${factDates(fact)}${fact.ending === undefined ? '' : ` ${fact.ending}`}`,
    `- Came from: ${fact.source ?? 'your Graphiti server does not say which conversation or memory'}`,
    '',
  ].join('\n');
}

function quote(text: string): string {
  return sanitiseFactText(text) === '' ? '> …' : text.split('\n').map((line) => `> ${line}`).join('\n');
}
