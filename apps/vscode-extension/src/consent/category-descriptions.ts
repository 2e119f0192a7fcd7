// How each consent category reads to people: one line in a consent dialog, a short label in the status.
import { MIRROR_CONSENT_TEXT, type ConsentCategory } from '@graphiti-memory/memory-core';

export const CATEGORY_DETAIL: Record<ConsentCategory, string> = {
  memoryChat: 'your messages and the answers of finished chat turns with @memory, and memories you promote',
  workspaceChats: 'the text of every chat of this workspace (any participant, GitHub Copilot included; graphitiMemory.capture.vscodeChat)',
  claudeCode: "the text of Claude Code conversations in this workspace's folders (graphitiMemory.capture.claudeCode)",
  systemPrompts: 'system prompt text and one ownership note per memory group (graphitiMemory.includeSystemMessages)',
  recallQueries: 'your questions, as search queries, when memory is recalled (graphitiMemory.recall.enabled)',
  agentHooks: 'the turns that connected agent hooks (Claude Code, Copilot agent) report for this workspace',
  mirror: `${MIRROR_CONSENT_TEXT}, into a memory group of its own (graphitiMemory.mirror.enabled)`,
};

export const CATEGORY_LABEL: Record<ConsentCategory, string> = {
  memoryChat: '@memory chats',
  workspaceChats: 'other chats of this workspace (capture.vscodeChat)',
  claudeCode: 'Claude Code sessions (capture.claudeCode)',
  systemPrompts: 'system prompts (includeSystemMessages)',
  recallQueries: 'recall queries (recall.enabled)',
  agentHooks: 'agent hooks',
  mirror: 'the structured mirror (mirror.enabled)',
};
