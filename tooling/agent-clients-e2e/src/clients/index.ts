import type { AgentClient, ClientTarget } from './agent-client.js';
import { codex } from './codex.js';
import { copilotCli } from './copilot-cli.js';
import { gemini } from './gemini.js';

export type { AgentClient, ClientInvocation, ClientRunContext, ClientTarget } from './agent-client.js';

/** Every client the e2e drives, in the order it runs them. */
export const AGENT_CLIENTS: readonly AgentClient[] = [codex, gemini, copilotCli];

export function clientNamed(target: string): AgentClient | undefined {
  return AGENT_CLIENTS.find((client) => client.target === (target as ClientTarget));
}
