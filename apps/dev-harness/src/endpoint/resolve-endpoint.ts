// Which Graphiti the harness talks to: the URL given with --endpoint or configured, or, for the
// commands that exist to show the loop offline (demo, bench, smoke), an emulator started in this
// process. Any other command without an endpoint stops with the next step: an emulator that
// vanishes with the command would make a "remembered" that is not. The emulator is announced
// loudly every time, so nobody mistakes it for Graphiti.
import { startEmulator, type EmulatorFace, type RunningEmulator } from '@graphiti-memory/graphiti-emulator';
import { HarnessError } from '../cli/harness-errors.js';
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
  /** Start the emulator when no endpoint is given or configured: only demo, bench and smoke. */
  readonly whenNoEndpoint?: boolean;
}

/** The failure of a command that needs an endpoint and has none: the next step named. */
export function noEndpointError(): HarnessError {
  return new HarnessError('no Graphiti endpoint: none is configured and --endpoint was not given, so nothing was sent or read.', {
    hint: 'Run graphiti-harness setup (once: it connects an endpoint and checks it), or pass --endpoint URL. Only demo, bench and smoke run on the in-process emulator.',
    details: { reason: 'no-endpoint' },
  });
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
  if (settings.whenNoEndpoint !== true) throw noEndpointError();
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
