// `graphiti-emulator --port N [--processing-delay-ms N]`: the emulator for manual use.
import { parseArgs } from 'node:util';
import { startEmulator } from './server.js';

const USAGE =
  'Usage: graphiti-emulator [--port N] [--processing-delay-ms N] [--face rest|mcp] [--closed-client-defect] [--quiet]';

function parseNonNegativeInteger(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) {
    throw new Error(`--${name} must be a whole number ≥ 0, got "${raw}".\n${USAGE}`);
  }
  return value;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '8000' },
      'processing-delay-ms': { type: 'string' },
      quiet: { type: 'boolean', default: false },
      face: { type: 'string', default: 'rest' },
      'closed-client-defect': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const port = parseNonNegativeInteger('port', values.port, 8000);
  const processingDelayMs = parseNonNegativeInteger('processing-delay-ms', values['processing-delay-ms'], 5);
  const face = values.face;
  if (face !== 'rest' && face !== 'mcp') throw new Error(`--face must be "rest" or "mcp", got "${face}".\n${USAGE}`);
  const closedClientDefect = values['closed-client-defect'];
  if (closedClientDefect && face !== 'rest') throw new Error(`--closed-client-defect applies to --face rest only.\n${USAGE}`);
  const emulator = await startEmulator({ port, processingDelayMs, quiet: values.quiet, face, closedClientDefect });
  console.log(
    [
      face === 'mcp'
        ? `Graphiti MCP server EMULATOR listening on ${emulator.url} (MCP endpoint ${emulator.url}/mcp/, GET /health)`
        : `Graphiti REST API EMULATOR listening on ${emulator.url}`,
      ...(closedClientDefect ? ['Reproducing upstream\'s closed-client defect: 202 for everything, nothing stored after the first message.'] : []),
      'This is NOT Graphiti: no LLM, no graph database, no embeddings. Facts come from a lexical',
      'stand-in extraction (one per sentence) and search is word overlap. Data lives in memory only.',
      face === 'mcp'
        ? `Episodes are processed by one worker per group, ${processingDelayMs} ms each. Ctrl+C stops it.`
        : `Messages are processed by one worker, ${processingDelayMs} ms each. Ctrl+C stops it.`,
    ].join('\n'),
  );
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`Received ${signal}; stopping the emulator.`);
    emulator.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
