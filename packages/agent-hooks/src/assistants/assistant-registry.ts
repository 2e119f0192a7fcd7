// The registry: every assistant Graphiti Memory connects to, one descriptor each. Adding an
// assistant is one descriptor here (and its transcript reader in memory-core, and their tests).
import type { AssistantDescriptor, HandlerEvent } from './assistant-descriptor.js';
import { HANDLER_EVENTS } from './assistant-descriptor.js';
import { claudeCode } from './claude-code.js';
import { codex } from './codex.js';
import { copilotCli } from './copilot-cli.js';
import { copilotVscode } from './copilot-vscode.js';
import { geminiCli } from './gemini-cli.js';

export const ASSISTANTS = [claudeCode, copilotVscode, codex, geminiCli, copilotCli] as const satisfies readonly AssistantDescriptor[];

export type AgentHookTarget = (typeof ASSISTANTS)[number]['target'];
export const AGENT_HOOK_TARGETS: readonly AgentHookTarget[] = ASSISTANTS.map((assistant) => assistant.target);

/** Hook command lines that name no assistant (written before `--agent`) run as Claude Code's: its input and output are VS Code's too. */
export const DEFAULT_ASSISTANT: AgentHookTarget = 'claude';

export function isAgentHookTarget(name: unknown): name is AgentHookTarget {
  return typeof name === 'string' && (AGENT_HOOK_TARGETS as readonly string[]).includes(name);
}

export function assistantDescriptor(target: AgentHookTarget): AssistantDescriptor<AgentHookTarget> {
  const found = ASSISTANTS.find((assistant) => assistant.target === target);
  if (found === undefined) throw new Error(`assistantDescriptor: no assistant ${JSON.stringify(target)} is registered (registered: ${AGENT_HOOK_TARGETS.join(', ')})`);
  return found;
}

/** The descriptor a hook command line names (`--agent`), else the default one; `undefined` for a name no assistant has. */
export function assistantOfCommandLine(agent: string | undefined): AssistantDescriptor<AgentHookTarget> | undefined {
  if (agent === undefined) return assistantDescriptor(DEFAULT_ASSISTANT);
  return isAgentHookTarget(agent) ? assistantDescriptor(agent) : undefined;
}

/** Our handler for an event the assistant names (its own name, or ours); `undefined` for an event we do not handle. */
export function handlerOfEvent(assistant: AssistantDescriptor, name: string | undefined): HandlerEvent | undefined {
  if (name === undefined) return undefined;
  const ours = HANDLER_EVENTS.find((event) => event === name);
  if (ours !== undefined) return ours;
  return HANDLER_EVENTS.find((event) => assistant.events[event] === name);
}

/**
 * The assistant whose input this really is. A hook folder two assistants read runs one's lines in
 * the other (VS Code runs Copilot CLI's `bash` entries): an input that names its event where the
 * named assistant's never does is Claude-shaped (VS Code's, read as DEFAULT_ASSISTANT's), and a
 * camelCase one without an event name where the named assistant always names it is of the
 * registered assistant that sends exactly that (Copilot CLI).
 */
export function assistantOfInput(named: AssistantDescriptor<AgentHookTarget>, input: Readonly<Record<string, unknown>>): AssistantDescriptor<AgentHookTarget> {
  const namesEvent = typeof input['hook_event_name'] === 'string' || typeof input['hookEventName'] === 'string';
  if (named.input.eventName.length === 0 && namesEvent) return assistantDescriptor(DEFAULT_ASSISTANT);
  if (named.input.eventName.length > 0 && !namesEvent && typeof input['sessionId'] === 'string' && typeof input['session_id'] !== 'string') {
    return ASSISTANTS.find((assistant) => assistant.input.eventName.length === 0 && assistant.input.fieldCase === 'camelCase') ?? named;
  }
  return named;
}
