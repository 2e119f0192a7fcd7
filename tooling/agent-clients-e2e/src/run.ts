// The end-to-end test with the real Codex, Gemini CLI and Copilot CLI:
// `node dist/run.js [--face rest|mcp] [--client codex|gemini|copilot-cli] [--keep]` (the root's
// `pnpm test:agents` builds what it needs first). Installs the pinned CLIs once per machine, then
// re-starts itself in a network namespace with only loopback and runs each client's scenario in a
// throwaway world of its own (HOME, emulator, scripted model). Prints `N passed, N failed` last;
// exit 1 on any failure, with the run's artifacts kept and their folder printed.
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startEmulator, type EmulatorFace, type RunningEmulator } from '@graphiti-memory/graphiti-emulator';
import { cacheDirectory, Checks, ensurePinnedCli, harnessBinary, Sandbox, SetupError, Tools } from '@graphiti-memory/claude-code-e2e/support';
import { AGENT_CLIENTS, clientNamed, type AgentClient } from './clients/index.js';
import { INSIDE_NAMESPACE, interfaceNames, namespaceUnavailable, rerunInNamespace, UNREACHABLE_PROXY_ENVIRONMENT } from './network.js';
import { runClientScenario, scriptedAnswer } from './scenario.js';
import { startScriptedModel, type ScriptedModelServer } from './scripted-model-server.js';

/** One client's whole scenario; one still going then is stopped and fails. */
const CLIENT_BUDGET_MS = 240_000;

const print = (line: string): void => void process.stdout.write(`${line}\n`);
const note = (line: string): void => void process.stderr.write(`[agents e2e] ${line}\n`);

interface Flags {
  readonly face: EmulatorFace;
  readonly clients: readonly AgentClient[];
  readonly keep: boolean;
  readonly namespace: boolean;
}

function parseFlags(): Flags {
  const { values } = parseArgs({
    options: {
      face: { type: 'string', default: 'rest' },
      client: { type: 'string', multiple: true },
      keep: { type: 'boolean', default: false },
      'no-network-namespace': { type: 'boolean', default: false },
    },
  });
  if (values.face !== 'rest' && values.face !== 'mcp') {
    note(`--face must be rest or mcp, got "${values.face}".`);
    process.exit(2);
  }
  const clients = (values.client ?? AGENT_CLIENTS.map((client) => client.target)).map((name) => {
    const client = clientNamed(name);
    if (client === undefined) {
      note(`--client must be one of ${AGENT_CLIENTS.map((entry) => entry.target).join(', ')}, got "${name}".`);
      process.exit(2);
    }
    return client;
  });
  return { face: values.face, clients, keep: values.keep, namespace: !values['no-network-namespace'] };
}

function keepArtifacts(sandbox: Sandbox, client: AgentClient, model: ScriptedModelServer | undefined, emulator: RunningEmulator | undefined): void {
  const write = (name: string, value: unknown): void => fs.writeFileSync(path.join(sandbox.artifacts, name), `${JSON.stringify(value, null, 2)}\n`);
  if (model) write('model-requests.json', model.requests);
  if (emulator) write('emulator-requests.json', emulator.requests);
  if (emulator) write('emulator-episodes.json', emulator.state.episodes());
  const copies = [
    [path.join(sandbox.stateDirectory, 'hooks', 'hook.log'), 'hook.log'],
    [path.join(sandbox.stateDirectory, 'hooks', 'runs.jsonl'), 'runs.jsonl'],
    [path.join(sandbox.configDirectory, 'config.json'), 'graphiti-memory-config.json'],
    ...client.hookFiles(sandbox.home).map((file) => [file, `${client.target}-${path.basename(file)}`]),
  ];
  for (const [from = '', to = ''] of copies) if (fs.existsSync(from)) fs.copyFileSync(from, path.join(sandbox.artifacts, to));
}

async function runClient(client: AgentClient, entry: string, harness: string, flags: Flags, checks: Checks, clientEnvironment: Readonly<Record<string, string>>): Promise<string | undefined> {
  print(`\n### ${client.title} ${client.cli.version} (${entry})`);
  const sandbox = await Sandbox.create(`${client.target}-${flags.face}`, 'agent-clients-e2e');
  let emulator: RunningEmulator | undefined;
  let model: ScriptedModelServer | undefined;
  let budgetTimer: NodeJS.Timeout | undefined;
  const before = checks.failed.length;
  try {
    emulator = await startEmulator({ face: flags.face, processingDelayMs: 5 });
    model = await startScriptedModel(client.format, scriptedAnswer, (request) => note(`${client.title}'s model server: unknown request ${request.method} ${request.path} (answered 404)`));
    const endpoint = flags.face === 'mcp' ? `${emulator.url}/mcp/` : emulator.url;
    const tools = new Tools(sandbox, { harness }, model.url);
    const overBudget = new Promise<'over budget'>((resolve) => (budgetTimer = setTimeout(() => resolve('over budget'), CLIENT_BUDGET_MS)));
    const scenario = runClientScenario({ client, entry, sandbox, tools, emulator, model, checks, endpoint, modelUrl: model.url, cacheDirectory: cacheDirectory(), clientEnvironment });
    const outcome = await Promise.race([scenario, overBudget]);
    if (outcome === 'over budget') checks.check(`${client.title}'s scenario finishes within ${CLIENT_BUDGET_MS / 1000} s`, false, 'stopped: a step did not finish in time');
  } catch (error) {
    checks.check(`${client.title}'s scenario runs to its end`, false, String(error instanceof Error ? (error.stack ?? error.message) : error));
  } finally {
    clearTimeout(budgetTimer);
    const ended = await sandbox.endProcesses();
    if (ended.length > 0) note(`ended ${ended.length} process(es) the ${client.title} run left behind: ${ended.join(', ')}`);
    keepArtifacts(sandbox, client, model, emulator);
    await model?.close();
    await emulator?.close();
  }
  if (checks.failed.length > before || flags.keep) return sandbox.artifacts;
  sandbox.remove();
  return undefined;
}

async function main(): Promise<number> {
  const flags = parseFlags();
  const inside = process.env[INSIDE_NAMESPACE] === '1';
  let harness: string;
  const entries = new Map<AgentClient, string>();
  try {
    harness = harnessBinary();
    // Outside the namespace: the one-time installs need the npm registry.
    for (const client of flags.clients) entries.set(client, ensurePinnedCli(client.cli, note));
  } catch (error) {
    note(error instanceof SetupError ? error.message : String(error));
    print('0 passed, 1 failed');
    return 1;
  }

  let clientEnvironment: Readonly<Record<string, string>> = {};
  if (!inside) {
    const unavailable = flags.namespace ? namespaceUnavailable() : '--no-network-namespace';
    if (unavailable === undefined) return rerunInNamespace(process.argv[1] ?? '', process.argv.slice(2));
    print(`NO network namespace (${unavailable}): the clients run with every outside host unreachable by configuration only (proxy variables to a closed loopback port; updates, telemetry and plugin sync off).`);
    clientEnvironment = UNREACHABLE_PROXY_ENVIRONMENT;
  }

  const started = Date.now();
  const checks = new Checks(print);
  print(`Codex, Gemini CLI and Copilot CLI against the Graphiti EMULATOR (${flags.face} face) and scripted models`);
  if (inside) {
    checks.begin('network');
    const names = interfaceNames();
    checks.check('the clients run in a network namespace where only loopback exists (unshare -n)', names.length === 1 && names[0] === 'lo', `interfaces: ${names.join(', ')}`);
  }
  const kept: string[] = [];
  for (const client of flags.clients) {
    const artifacts = await runClient(client, entries.get(client) ?? '', harness, flags, checks, clientEnvironment);
    if (artifacts !== undefined) kept.push(`${client.title}: ${artifacts}`);
  }
  print(`\n${Math.round((Date.now() - started) / 1000)} s`);
  if (kept.length > 0) print(`Artifacts (model requests, CLI output, hook.log, …):\n  ${kept.join('\n  ')}`);
  print(checks.summary());
  return checks.failed.length > 0 ? 1 : 0;
}

const code = await main();
process.exitCode = code;
// A scenario stopped at its budget may still hold a timer or a socket: leave anyway, once stdout drained.
setTimeout(() => process.exit(code), 2_000).unref();
