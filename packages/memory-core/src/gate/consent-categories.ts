// What a consent covers, by kind of data. Turning on a setting that sends a new kind of data needs
// consent for that kind: a category the user has not agreed to stays inert (nothing of it is sent)
// even while its setting is on.
import type { ConsentRecord } from '../ports.js';
import type { MemorySettings } from '../settings/memory-settings.js';

export const CONSENT_CATEGORIES = [
  /** Chat turns of the `@memory` participant and memories the user promotes: every consent covers them. */
  'memoryChat',
  /** Other chats of the workspace (`capture.vscodeChat`). */
  'workspaceChats',
  /** Claude Code sessions of the workspace's folders (`capture.claudeCode`). */
  'claudeCode',
  /** System and context prompts, ownership notes (`includeSystemMessages`). */
  'systemPrompts',
  /** The user's questions, sent as search queries (`recall.enabled`). */
  'recallQueries',
  /** Turns reported by agent hooks (Claude Code, Copilot) connected to this workspace. */
  'agentHooks',
  /**
   * The structured mirror (`mirror.enabled`): per finalized turn, the conversation's id, title and
   * tool, the turn's time, what was said (capped), each tool call's name and a summary of its
   * arguments, each result's status, size and hash, references and attachments by URI and hash.
   */
  'mirror',
] as const;

/** What the mirror sends, in the words a consent prompt shows. */
export const MIRROR_CONSENT_TEXT =
  'the structure of each finished chat turn: the conversation id, title and tool; the turn time; what was said (capped); tool call names with a summary of their arguments; tool result status, size and hash (not their content); files referenced or attached by path and hash (not their content)';
export type ConsentCategory = (typeof CONSENT_CATEGORIES)[number];

export function isConsentCategory(value: unknown): value is ConsentCategory {
  return typeof value === 'string' && (CONSENT_CATEGORIES as readonly string[]).includes(value);
}

/** The categories the settings switch on (agent hooks are switched on by connecting them, not by a setting). */
export function categoriesInUse(settings: MemorySettings): ConsentCategory[] {
  const categories: ConsentCategory[] = ['memoryChat'];
  if (settings.capture.vscodeChat) categories.push('workspaceChats');
  if (settings.capture.claudeCode) categories.push('claudeCode');
  if (settings.includeSystemMessages) categories.push('systemPrompts');
  if (settings.recall.enabled) categories.push('recallQueries');
  if (settings.mirror.enabled) categories.push('mirror');
  return categories;
}

/**
 * Whether a consent record covers a category. A record without categories comes from a host that
 * does not track them (the harness's consent, given per endpoint on the command line): it covers all.
 */
export function consentCovers(record: ConsentRecord, category: ConsentCategory): boolean {
  return record.categories === undefined || category === 'memoryChat' || record.categories.includes(category);
}

/** The categories in use that the record does not cover: on, but inert until the user agrees. */
export function inertCategories(record: ConsentRecord | undefined, settings: MemorySettings): ConsentCategory[] {
  if (record === undefined) return [];
  return categoriesInUse(settings).filter((category) => !consentCovers(record, category));
}
