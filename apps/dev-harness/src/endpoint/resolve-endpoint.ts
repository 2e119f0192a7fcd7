// Which Graphiti the harness talks to: the URL given with --endpoint, or an emulator started in
// this process. The emulator is announced loudly every time, so nobody mistakes it for Graphiti.
import { startEmulator, type EmulatorFace, type RunningEmulator } from '@graphiti-memory/graphiti-emulator';
import type { Output } from '../terminal/output.js';

export interface ResolvedEndpoint {
  readonly url: string;
  /** Set when the endpoint is the in-process emulator (its request log, state and faults). */
  readonly emulator: RunningEmulator | undefined;
  /** A short label for messages: the URL, or the URL marked as the emulator. */
  readonly label: string;
  close(): Promise<void>;
}

export interface EmulatorSettings {
  /** Per-message processing delay of the emulator's worker; small, so confirmation is visible. */
  readonly processingDelayMs?: number;
  /** Which server the emulator plays (`--server mcp` starts the MCP face); default REST. */
  readonly face?: EmulatorFace;
}

export const DEFAULT_EMULATOR_PROCESSING_DELAY_MS = 20;

export async function resolveEndpoint(
  endpoint: string | undefined,
  output: Output,
  settings: EmulatorSettings = {},
): Promise<ResolvedEndpoint> {
  if (endpoint !== undefined) {
    return { url: endpoint, emulator: undefined, label: endpoint, close: async () => {} };
  }
  const face = settings.face ?? 'rest';
  const emulator = await startEmulator({
    face,
    quiet: true,
    processingDelayMs: settings.processingDelayMs ?? DEFAULT_EMULATOR_PROCESSING_DELAY_MS,
  });
  output.notice(
    `Using an in-process Graphiti ${face === 'mcp' ? 'MCP server ' : ''}EMULATOR at ${emulator.url}, not Graphiti: its data lives in this process only and is gone when the command ends. Pass --endpoint URL to use a real Graphiti.`,
  );
  let closed = false;
  return {
    url: emulator.url,
    emulator,
    label: `${emulator.url} (in-process ${face === 'mcp' ? 'MCP ' : ''}emulator)`,
    async close() {
      if (closed) return;
      closed = true;
      await emulator.close();
    },
  };
}
