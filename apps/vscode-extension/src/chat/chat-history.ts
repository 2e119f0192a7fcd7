// What `@memory` reads from `ChatContext.history`: the conversation (for the prompt) and the
// session id it handed out on the first turn (carried in each result's metadata).
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import type { HistoryMessage } from './memory-prompt.js';

/** The metadata `@memory` returns with each result. */
export interface MemoryResultMetadata {
  readonly sessionId: string;
  readonly command?: string | undefined;
  readonly factsUsed?: number;
  readonly gateOpen?: boolean;
  /** `/recall` answered that recall is off. */
  readonly recallOff?: boolean;
  /** The user's question of an answer turn: what "Show what memory recalls" recalls for. */
  readonly question?: string;
  /** When the prompt of this answer carried recalled facts (ms since the epoch): a later forget leaves the answer out. */
  readonly memoryGivenAt?: number;
}

/** What stands in the prompt for an answer built on memory that was withdrawn since. */
export const WITHDRAWN_ANSWER = '(An earlier answer is left out here: the memory it drew on was forgotten or turned off.)';

export function isMemoryMetadata(value: unknown): value is MemoryResultMetadata {
  return typeof value === 'object' && value !== null && typeof (value as { sessionId?: unknown }).sessionId === 'string';
}

/**
 * The chat session's id: the one handed out on an earlier turn of this conversation, else a new
 * one. VS Code (1.95) gives participants no session id, but each result's metadata comes back in
 * the history of later requests of the same conversation.
 */
export function sessionIdOf(context: vscode.ChatContext): string {
  for (let index = context.history.length - 1; index >= 0; index -= 1) {
    const turn = context.history[index];
    if (turn instanceof vscode.ChatResponseTurn && isMemoryMetadata(turn.result.metadata)) return turn.result.metadata.sessionId;
  }
  return randomUUID();
}

/**
 * The conversation so far as prompt messages (slash-command turns left out). An answer whose prompt
 * carried memory at or before `withdrawnAt` (a forget, a revoke, Disable since) is left out: it may
 * repeat what was forgotten.
 */
export function historyMessages(context: vscode.ChatContext, withdrawnAt?: number): HistoryMessage[] {
  const messages: HistoryMessage[] = [];
  for (const turn of context.history) {
    if (turn instanceof vscode.ChatRequestTurn) {
      if (turn.command === undefined) messages.push({ role: 'user', text: turn.prompt });
    } else if (turn instanceof vscode.ChatResponseTurn) {
      if (turn.command !== undefined) continue;
      const metadata = isMemoryMetadata(turn.result.metadata) ? turn.result.metadata : undefined;
      if (withdrawnAt !== undefined && metadata?.memoryGivenAt !== undefined && metadata.memoryGivenAt <= withdrawnAt) {
        messages.push({ role: 'assistant', text: WITHDRAWN_ANSWER });
        continue;
      }
      const text = turn.response
        .map((part) => (part instanceof vscode.ChatResponseMarkdownPart ? part.value.value : ''))
        .join('')
        .replace(FOOTER_PATTERN, '')
        .trim();
      if (text !== '') messages.push({ role: 'assistant', text });
    }
  }
  return messages;
}

/**
 * What `@memory` appends after an answer: how memory did and, when it contributed, each fact used
 * with its dates (`facts`: lines from `factLine`). Kept out of the history sent to the model.
 */
export function memoryFooter(facts: readonly string[], outcome: string, cached?: string): string {
  // Graphiti did not answer, the local tier did: said so, with the cache's age.
  if (cached !== undefined && facts.length > 0) return `\n\n---\n_Memory from the local cache (${cached}): ${facts.length} fact${facts.length === 1 ? '' : 's'} used._\n\n${facts.map((line) => `- ${line}`).join('\n')}`;
  if (outcome === 'timeout') return `\n\n---\n_Memory was too slow to answer in time: answered without it._`;
  if (outcome === 'error') return `\n\n---\n_Memory is unreachable: answered without it._`;
  if (facts.length === 0) return '';
  const summary = `\n\n---\n_Graphiti memory: ${facts.length} fact${facts.length === 1 ? '' : 's'} used._`;
  return `${summary}\n\n${facts.map((line) => `- ${line}`).join('\n')}`;
}
/** The footer and everything after it (the fact list is part of it). */
const FOOTER_PATTERN = /\n\n---\n_(?:Graphiti memory|Memory)[^\n]*_[\s\S]*$/;

/**
 * One recalled fact for the chat, as data: one line, Markdown neutralised (recalled text must not
 * become a link, a heading or markup), then its dates and scope, then what ends its line in the
 * prompt (`suffix`: prompt-elements' `factLineSuffix`, the stale mark and the citation).
 */
export function factLine(text: string, dates: string, scope: string, suffix = ''): string {
  const plain = (value: string) => value.replace(/\s+/g, ' ').trim().replace(/[\\`*_[\]<>|#!~(){}]/g, (character) => `\\${character}`);
  const after = plain(suffix);
  return `${plain(text)} _(${dates}, ${scope})_${after === '' ? '' : ` ${after}`}`;
}
