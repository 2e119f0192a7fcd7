// The registry: every assistant Graphiti Memory connects to, one descriptor each. Adding an
// assistant is one descriptor here (and its transcript reader in memory-core, and their tests).
import type { AssistantDescriptor, HandlerEvent } from './assistant-descriptor.js';
import { HANDLER_EVENTS } from './assistant-descriptor.js';
import { claudeCode } from './claude-code.js';
import { copilotVscode } from './copilot-vscode.js';

export const ASSISTANTS = [claudeCode, copilotVscode] as const satisfies readonly AssistantDescriptor[];

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
