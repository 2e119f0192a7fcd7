// Whether one MCP tool call may reach memory, decided afresh on every call (a revoke, a switch or a
// setup made a moment ago in any tool holds at once): memory on, an endpoint configured, consent
// recorded for exactly that endpoint (by `setup`, `hooks install` or the extension; running the MCP
// server is never consent), no memory switch closing this workspace or endpoint, a private API key
// file. The same rules as a hook run (agent-hooks' hook context). When it may, the call gets a
// command context as the harness's commands do, so every tool opens memory through the one
// composition root (`openHarnessMemory`) with the recorded consent instead of a command's own.
import { closedBySwitches, FileMemorySwitches, readApiKey, SwitchedConsentStore } from '@graphiti-memory/memory-node-storage';
import { normaliseEndpoint, type ConsentStore } from '@graphiti-memory/memory-core';
import type { CommandContext } from '../cli/command-runner.js';
import { resolveCommonOptions, type RawCommonOptions } from '../cli/common-options.js';
import { configureOptions } from '../cli/config-defaults.js';
import { Output } from '../terminal/output.js';
import type { Terminal } from '../terminal/terminal.js';

/** The flags `graphiti-harness mcp` takes (the client's config passes them). */
export interface McpServerFlags {
  readonly stateDir?: string;
  readonly workspace?: string;
}

export type McpAccess =
  | { readonly ok: true; readonly context: CommandContext; readonly consent: ConsentStore; close(): Promise<void> }
  | { readonly ok: false; readonly reason: string; readonly message: string };

/** What every tool answers when memory is not set up here: why, and the one step that sets it up. */
export function notSetUpMessage(why: string): string {
  return `Graphiti Memory is not set up for this assistant: ${why}. Nothing was read or sent. To set it up, the user runs \`graphiti-harness setup\` in a terminal (it asks for the Graphiti endpoint and for consent to send there); then this tool works. Answer without memory for now.`;
}

/**
 * Resolves the configuration (flags > env > project > user > defaults, an untrusted project file
 * only narrowing) and the gate for one tool call. `terminal` must not write to the process's
 * stdout: stdout carries the protocol.
 */
export async function resolveMcpAccess(terminal: Terminal, flags: McpServerFlags, workspaceFolder: string | undefined, defaultStateDir?: string): Promise<McpAccess> {
  const raw: RawCommonOptions = {
    json: true,
    color: false,
    ...(flags.stateDir === undefined ? {} : { stateDir: flags.stateDir }),
    ...(workspaceFolder === undefined ? {} : { workspace: workspaceFolder }),
  };
  let configured;
  try {
    configured = await configureOptions(raw, { cwd: terminal.cwd, env: terminal.env });
  } catch (error) {
    // A broken config file: named (files and keys only, never content), memory stays closed.
    return { ok: false, reason: 'bad-config', message: notSetUpMessage(`the configuration cannot be read (${error instanceof Error ? error.message : String(error)})`) };
  }
  const configuration = configured.configuration;
  const options = resolveCommonOptions(configured.raw, { cwd: terminal.cwd, env: terminal.env, ...(defaultStateDir === undefined ? {} : { defaultStateDir }) });
  if (!configuration.enabled) return { ok: false, reason: 'disabled', message: notSetUpMessage('memory is turned off in the configuration') };
  const endpoint = configuration.endpoint === undefined ? undefined : (normaliseEndpoint(configuration.endpoint) ?? configuration.endpoint);
  if (endpoint === undefined || options.endpoint === undefined) return { ok: false, reason: 'no-endpoint', message: notSetUpMessage('no Graphiti endpoint is configured') };
  const consented = configuration.consent === undefined ? undefined : (normaliseEndpoint(configuration.consent.endpoint) ?? configuration.consent.endpoint);
  if (consented !== endpoint) return { ok: false, reason: 'no-consent', message: notSetUpMessage(`the user has not consented to sending memory to ${endpoint}`) };
  const switches = await FileMemorySwitches.inStateFolder(options.stateDir).read();
  if (!switches.ok) return { ok: false, reason: 'bad-memory-switches', message: notSetUpMessage('the memory switches file cannot be read (graphiti-harness doctor names it)') };
  const closed = closedBySwitches(switches.switches, options.workspace, endpoint);
  if (closed !== undefined) return { ok: false, reason: closed.reason, message: notSetUpMessage(closed.detail) };
  const key = await readApiKey(terminal.env);
  if (!key.ok) return { ok: false, reason: 'bad-api-key-file', message: notSetUpMessage('the API key file can be read by other users (graphiti-harness doctor says how to fix it)') };

  const grantedAt = configuration.consent?.grantedAt ?? new Date().toISOString();
  // The gate inside memory-core checks it again, with the switches re-read while the call runs.
  const consent = new SwitchedConsentStore({
    base: { get: () => ({ endpoint, grantedAt }), grant: async () => {}, revoke: async () => {} },
    switches: FileMemorySwitches.inStateFolder(options.stateDir),
    workspaceFolder: options.workspace,
  });
  const cleanups: Array<() => unknown> = [];
  const context: CommandContext = {
    terminal,
    options: { ...options, json: true, colorAllowed: false },
    configuration,
    output: new Output(terminal, true, false),
    defer: (cleanup) => cleanups.push(cleanup),
  };
  return {
    ok: true,
    context,
    consent,
    close: async () => {
      for (const cleanup of cleanups.reverse()) await Promise.resolve().then(cleanup).catch(() => undefined);
    },
  };
}
