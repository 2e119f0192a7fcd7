// The end-to-end test with the real Claude Code CLI: `node dist/run.js [--face rest|mcp]` (the root's
// `pnpm test:claude-code` builds what it needs first). Prints `N passed, N failed` last; exit 1 on any
// failure, with the run's artifacts kept and their folder printed.
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startEmulator, type EmulatorFace, type RecordedRequest, type RunningEmulator } from '@graphiti-memory/graphiti-emulator';
import { Checks } from './checks.js';
import { startModelServer, type RunningModelServer } from './model-server.js';
import { Sandbox } from './sandbox.js';
import { runScenario, scriptedAnswer } from './scenario.js';
import { CLAUDE_CODE_VERSION, ensureClaudeCode, SetupError } from './setup.js';
import { harnessBinary, Tools } from './tools.js';

/** The whole run after the one-time install (seven CLI runs on a busy machine); a scenario still going then is stopped and fails. */
const RUN_BUDGET_MS = 260_000;

const print = (line: string): void => void process.stdout.write(`${line}\n`);
const note = (line: string): void => void process.stderr.write(`[claude-code e2e] ${line}\n`);

function parseFlags(): { face: EmulatorFace; keep: boolean } {
  const { values } = parseArgs({ options: { face: { type: 'string', default: 'rest' }, keep: { type: 'boolean', default: false } } });
  if (values.face !== 'rest' && values.face !== 'mcp') {
    note(`--face must be rest or mcp, got "${values.face}".`);
    process.exit(2);
  }
  return { face: values.face, keep: values.keep };
}

function keepArtifacts(sandbox: Sandbox, model: RunningModelServer | undefined, emulator: RunningEmulator | undefined, emulatorHistory: readonly RecordedRequest[]): void {
  const write = (name: string, value: unknown): void => fs.writeFileSync(path.join(sandbox.artifacts, name), `${JSON.stringify(value, null, 2)}\n`);
  if (model) write('model-requests.json', model.requests);
  if (emulator) write('emulator-requests.json', [...emulatorHistory, ...emulator.requests]);
  if (emulator) write('emulator-episodes.json', emulator.state.episodes());
  for (const [from, to] of [
    [path.join(sandbox.stateDirectory, 'hooks', 'hook.log'), 'hook.log'],
    [path.join(sandbox.stateDirectory, 'hooks', 'runs.jsonl'), 'runs.jsonl'],
    [path.join(sandbox.home, '.claude', 'settings.json'), 'claude-settings.json'],
    [path.join(sandbox.configDirectory, 'config.json'), 'graphiti-memory-config.json'],
  ] as const) {
    if (fs.existsSync(from)) fs.copyFileSync(from, path.join(sandbox.artifacts, to));
  }
}

async function main(): Promise<number> {
  const flags = parseFlags();
  const started = Date.now();
  const checks = new Checks(print);
  let claude: string;
  let harness: string;
  try {
    claude = ensureClaudeCode(note);
    harness = harnessBinary();
  } catch (error) {
    note(error instanceof SetupError ? error.message : String(error));
    print('0 passed, 1 failed');
    return 1;
  }
  print(`Claude Code ${CLAUDE_CODE_VERSION} (${claude}) against the Graphiti EMULATOR (${flags.face} face) and a scripted model`);

  const sandbox = await Sandbox.create(flags.face);
  let emulator: RunningEmulator | undefined;
  let model: RunningModelServer | undefined;
  let budgetTimer: NodeJS.Timeout | undefined;
  const emulatorHistory: RecordedRequest[] = [];
  try {
    emulator = await startEmulator({ face: flags.face, processingDelayMs: 5 });
    model = await startModelServer({
      script: scriptedAnswer,
      onUnknown: (request) => note(`model server: unknown request ${request.method} ${request.path} (answered 404)`),
    });
    const endpoint = flags.face === 'mcp' ? `${emulator.url}/mcp/` : emulator.url;
    const tools = new Tools(sandbox, { harness, claude }, model.url);
    const overBudget = new Promise<'over budget'>((resolve) => (budgetTimer = setTimeout(() => resolve('over budget'), RUN_BUDGET_MS)));
    const outcome = await Promise.race([runScenario({ sandbox, tools, emulator, model, checks, endpoint, harness, emulatorHistory }), overBudget]);
    if (outcome === 'over budget') checks.check(`the scenario finishes within ${RUN_BUDGET_MS / 1000} s`, false, 'stopped: a step did not finish in time');
  } catch (error) {
    checks.check('the scenario runs to its end', false, String(error instanceof Error ? (error.stack ?? error.message) : error));
  } finally {
    clearTimeout(budgetTimer);
    const ended = await sandbox.endProcesses();
    if (ended.length > 0) note(`ended ${ended.length} process(es) the run left behind: ${ended.join(', ')}`);
    keepArtifacts(sandbox, model, emulator, emulatorHistory);
    await model?.close();
    await emulator?.close();
  }

  print(`\n${Math.round((Date.now() - started) / 1000)} s`);
  const failed = checks.failed.length > 0;
  if (failed || flags.keep) print(`Artifacts (model requests, CLI output, hook.log, …): ${sandbox.artifacts}`);
  else sandbox.remove();
  print(checks.summary());
  return failed ? 1 : 0;
}

const code = await main();
process.exitCode = code;
// A scenario stopped at the budget may still hold a timer or a socket: leave anyway, once stdout drained.
setTimeout(() => process.exit(code), 2_000).unref();
