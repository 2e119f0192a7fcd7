// End-to-end tests: the packaged VSIX in a real VS Code (code-server's bundled VS Code server and
// web workbench, VS Code 1.139), driven in headless Chromium, against the Graphiti emulator.
// Usage: node e2e/run.mjs [--vsix FILE] [--only SESSION] [--face rest|mcp]   (pnpm test:e2e builds
// the VSIX first). `--face mcp` runs the same suites against the emulator's MCP server face; the
// extension finds out which face it is (graphitiMemory.serverKind auto).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { startControlServer } from './lib/control-server.mjs';
import { agentScript, startModelServer } from './lib/model-server.mjs';
import { ProcessGroup, freePort, stopProcessesNaming, waitForPort } from './lib/processes.mjs';
import { ensureTools } from './setup.mjs';

const extensionRoot = path.resolve(import.meta.dirname, '..');
const repoRoot = path.resolve(extensionRoot, '../..');
const { values: flags } = parseArgs({
  options: { vsix: { type: 'string' }, only: { type: 'string' }, face: { type: 'string', default: 'rest' } },
});
if (flags.face !== 'rest' && flags.face !== 'mcp') {
  console.error(`e2e: --face must be rest or mcp, got "${flags.face}".`);
  process.exit(2);
}

/**
 * Each session is one VS Code server + one browser page running one suite in the extension host.
 * `copilot`: the built-in Copilot Chat runs its real agent loop, signed out, on a scripted local
 * model through its bring-your-own-key Ollama provider (lib/model-server.mjs).
 */
const sessions = [
  { name: 'trusted', suite: 'trusted.js', trustFeature: false, timeoutMs: 300_000 },
  { name: 'untrusted', suite: 'untrusted.js', trustFeature: true, timeoutMs: 120_000 },
  { name: 'agent-hooks', suite: 'agent-hooks.js', trustFeature: false, copilot: true, timeoutMs: 300_000 },
  { name: 'status', suite: 'status.js', trustFeature: false, timeoutMs: 300_000 },
  { name: 'digest-writer', suite: 'digest-writer.js', trustFeature: false, timeoutMs: 240_000 },
  // `screenshots`: the main screens the suite must have saved; the run fails when one is missing.
  {
    name: 'memory-view',
    suite: 'memory-view.js',
    trustFeature: false,
    timeoutMs: 300_000,
    screenshots: [
      'memory-view-sections', 'pending-notification', 'what-was-sent', 'chat-memory-references', 'walkthrough', 'status-item',
      'consent-dialog', 'memory-opened', 'memory-edited', 'settings-document', 'memory-view-offline', 'memory-view-after-forget',
    ],
  },
];

const started = Date.now();
const processes = new ProcessGroup();
const artifactsDirectory = path.join(extensionRoot, '.e2e-artifacts');
/** Screenshots of the main screens, kept as CI artifacts (README: "Screenshots"). */
const screenshotsDirectory = path.join(artifactsDirectory, 'screenshots');
fs.rmSync(artifactsDirectory, { recursive: true, force: true });
fs.mkdirSync(screenshotsDirectory, { recursive: true });
const results = [];

function findVsix() {
  if (flags.vsix) return path.resolve(flags.vsix);
  const { version } = JSON.parse(fs.readFileSync(path.join(extensionRoot, 'package.json'), 'utf8'));
  const file = path.join(extensionRoot, `graphiti-memory-${version}.vsix`);
  if (!fs.existsSync(file)) {
    throw new Error(`No VSIX at ${file}. Build it first: pnpm package:vsix (pnpm test:e2e does).`);
  }
  return file;
}

/**
 * Packages the test-only extension (scripted model, @echo, the suites) as a VSIX: installed like a
 * user's extension, not as "extension tests", because VS Code refuses every modal dialog (the
 * consent prompt) in an extension-tests window.
 */
function packageSupportExtension() {
  const file = path.join(os.tmpdir(), `graphiti-e2e-support-${process.pid}.vsix`);
  const vsce = path.join(extensionRoot, 'node_modules/.bin/vsce');
  const result = spawnSync(
    vsce,
    ['package', '--no-dependencies', '--allow-missing-repository', '--skip-license', '--allow-star-activation', '--out', file],
    { cwd: path.join(import.meta.dirname, 'test-extension'), encoding: 'utf8' },
  );
  if (result.status !== 0) throw new Error(`Packaging the e2e support extension failed:\n${result.stdout}\n${result.stderr}`);
  return file;
}

/**
 * VS Code 1.139 disables the built-in Copilot Chat on a first start whose chat setup never completed
 * (ensureChatExtensionInitialDisabledState in the workbench), unless its global state says that
 * migration already ran. The web workbench keeps that state in IndexedDB, so the flag goes there
 * from a same-origin page (a 404 of the server) before the workbench loads. With a BYOK model
 * configured, VS Code then treats chat setup as done.
 */
async function keepBuiltinChatEnabled(page, port) {
  await page.goto(`http://127.0.0.1:${port}/graphiti-e2e-storage-seed`);
  const stored = await page.evaluate(
    ({ database, store, key }) =>
      new Promise((resolve, reject) => {
        // Runs in the page: the browser's IndexedDB of the server's origin.
        const opening = globalThis.indexedDB.open(database);
        opening.onupgradeneeded = () => {
          if (!opening.result.objectStoreNames.contains(store)) opening.result.createObjectStore(store);
        };
        opening.onerror = () => reject(new Error(`opening ${database}: ${opening.error}`));
        opening.onsuccess = () => {
          const db = opening.result;
          const transaction = db.transaction(store, 'readwrite');
          transaction.objectStore(store).put('true', key);
          transaction.oncomplete = () => {
            db.close();
            resolve(true);
          };
          transaction.onerror = () => reject(new Error(`writing ${key}: ${transaction.error}`));
        };
      }),
    { database: 'vscode-web-state-db-global', store: 'ItemTable', key: 'builtinChatExtensionEnablementMigration' },
  );
  if (stored !== true) throw new Error('Could not seed builtinChatExtensionEnablementMigration in the workbench state.');
}

/** Copies Copilot Chat's logs (its hook runs among them) of the session into the artifacts. */
function copyCopilotLogs(userData, sessionName) {
  const logs = path.join(userData, 'logs');
  for (const run of fs.existsSync(logs) ? fs.readdirSync(logs) : []) {
    for (const host of fs.readdirSync(path.join(logs, run)).filter((name) => name.startsWith('exthost'))) {
      const folder = path.join(logs, run, host, 'GitHub.copilot-chat');
      for (const file of fs.existsSync(folder) ? fs.readdirSync(folder) : []) {
        fs.copyFileSync(path.join(folder, file), path.join(artifactsDirectory, `${sessionName}-${host}-${file.replace(/[^a-z0-9.-]/gi, '_')}`));
      }
    }
  }
}

async function runSession(session, tools, vsix, supportVsix, emulator) {
  const temporary = fs.mkdtempSync(path.join(os.tmpdir(), `graphiti-e2e-${session.name}-`));
  const home = path.join(temporary, 'home');
  const userData = path.join(temporary, 'user-data');
  const extensions = path.join(temporary, 'extensions');
  const workspace = path.join(temporary, 'workspace');
  for (const directory of [home, path.join(userData, 'User'), extensions, workspace]) fs.mkdirSync(directory, { recursive: true });
  fs.writeFileSync(path.join(workspace, 'README.md'), '# e2e workspace\n');
  fs.writeFileSync(
    path.join(userData, 'User', 'settings.json'),
    JSON.stringify(
      {
        // Trust feature off: every folder is trusted. On, with no prompt: the folder stays untrusted.
        'security.workspace.trust.enabled': session.trustFeature,
        'security.workspace.trust.startupPrompt': 'never',
        'workbench.startupEditor': 'none',
        'chat.commandCenter.enabled': false,
        'extensions.autoCheckUpdates': false,
        'extensions.autoUpdate': false,
        'telemetry.telemetryLevel': 'off',
        'graphitiMemory.endpoint': emulator.url,
      },
      null,
      2,
    ),
  );
  // Copilot's BYOK models are read from this file at startup; the model answers before VS Code asks.
  const model = session.copilot ? await startModelServer({ script: agentScript({ toolFile: path.join(workspace, 'README.md') }) }) : undefined;
  if (model) {
    fs.writeFileSync(path.join(userData, 'User', 'chatLanguageModels.json'), JSON.stringify([{ name: 'Local', vendor: 'ollama', url: model.url }], null, 2));
  }
  const environment = {
    ...process.env,
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    XDG_DATA_HOME: path.join(home, '.local/share'),
    XDG_CACHE_HOME: path.join(home, '.cache'),
  };

  for (const file of [vsix, supportVsix]) {
    const install = spawnSync(tools.node24, [tools.codeServerBin, '--install-extension', file, '--extensions-dir', extensions, '--user-data-dir', userData], {
      env: environment,
      encoding: 'utf8',
    });
    if (install.status !== 0) throw new Error(`Installing ${path.basename(file)} failed:\n${install.stdout}\n${install.stderr}`);
  }
  if (!fs.readdirSync(extensions).some((name) => name.startsWith('graphiti-memory.graphiti-memory'))) {
    throw new Error(`Installing ${path.basename(vsix)} left no graphiti-memory folder in ${extensions}.`);
  }

  let page;
  let finish;
  const finished = new Promise((resolve) => (finish = resolve));
  const control = await startControlServer({
    emulator,
    model,
    page: () => page,
    artifactsDirectory,
    screenshotsDirectory,
    // The suite runs from the test extension's activation (not as VS Code "extension tests", in
    // which the workbench refuses every modal dialog) and says here when it is done.
    onDone: (outcome) => finish({ code: outcome?.code ?? 1 }),
    onReport: (report) => {
      results.push({ session: session.name, ...report });
      const mark = report.ok ? '✓' : '✗';
      console.log(`  ${mark} [${session.name}] ${report.name}${report.ok ? '' : `\n      ${String(report.error).split('\n').join('\n      ')}`}`);
    },
  });

  const port = await freePort();
  const server = processes.start(
    `vscode-server-${session.name}`,
    tools.node24,
    [
      tools.serverMain,
      '--host', '127.0.0.1',
      '--port', String(port),
      '--without-connection-token',
      '--accept-server-license-terms',
      '--extensions-dir', extensions,
      '--user-data-dir', userData,
      '--server-data-dir', path.join(temporary, 'server-data'),
    ],
    {
      env: {
        ...environment,
        GRAPHITI_E2E_CONTROL: control.url,
        GRAPHITI_E2E_EMULATOR: emulator.url,
        GRAPHITI_E2E_SUITE: session.suite,
        ...(model ? { GRAPHITI_E2E_OLLAMA_MODEL: model.model } : {}),
      },
    },
  );
  const { chromium } = await import(pathToFileURL(path.join(tools.playwright, 'index.mjs')).href);
  let context;
  try {
    await waitForPort(port, 60_000, server);
    context = await chromium.launchPersistentContext(path.join(temporary, 'browser'), {
      executablePath: tools.chromium,
      headless: true,
      viewport: { width: 1400, height: 900 },
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    page = context.pages()[0] ?? (await context.newPage());
    if (session.copilot) await keepBuiltinChatEnabled(page, port);
    await page.goto(`http://127.0.0.1:${port}/?folder=${encodeURIComponent(workspace)}`);
    const timer = setTimeout(() => finish({ code: 'timeout' }), session.timeoutMs);
    const outcome = await finished;
    clearTimeout(timer);
    if (outcome.code !== 0) {
      await page.screenshot({ path: path.join(artifactsDirectory, `${session.name}-failure.png`) }).catch(() => undefined);
      if (outcome.code === 'timeout') {
        results.push({ session: session.name, name: 'session finished in time', ok: false, error: `no result within ${session.timeoutMs} ms` });
      }
      if (!results.some((result) => result.session === session.name)) {
        results.push({ session: session.name, name: 'suite ran', ok: false, error: `exit ${outcome.code}; server output:\n${server.output.slice(-4000)}` });
      }
    }
  } finally {
    await context?.close().catch(() => undefined);
    await control.close();
    if (model) {
      // What Copilot sent the model and its logs (scripted test prompts only): where to look when the suite fails.
      fs.writeFileSync(path.join(artifactsDirectory, `${session.name}-model-requests.json`), JSON.stringify(model.requests, null, 2));
      copyCopilotLogs(userData, session.name);
      await model.close();
    }
    processes.stopAll();
    // A moment for the killed process groups to go, so that only processes outside them are left.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const leftBehind = stopProcessesNaming(temporary);
    if (leftBehind.length > 0) console.log(`  (stopped ${leftBehind.length} process(es) of the session left running: ${leftBehind.join(', ')})`);
    fs.rmSync(temporary, { recursive: true, force: true, maxRetries: 3 });
  }
  // Each screen the session promised must be on disk: a suite that stopped taking them fails here.
  for (const name of session.screenshots ?? []) {
    const file = path.join(screenshotsDirectory, `${name}.png`);
    const ok = fs.existsSync(file) && fs.statSync(file).size > 0;
    results.push({ session: session.name, name: `screenshot ${name}.png saved`, ok, ...(ok ? {} : { error: `no screenshot at ${file}` }) });
    if (!ok) console.log(`  ✗ [${session.name}] screenshot ${name}.png saved\n      no screenshot at ${file}`);
  }
}

let exitCode = 1;
try {
  const tools = ensureTools();
  const vsix = findVsix();
  const supportVsix = packageSupportExtension();
  const emulatorModule = await import(pathToFileURL(path.join(repoRoot, 'tooling/graphiti-emulator/dist/index.js')).href);
  const emulator = await emulatorModule.startEmulator({ quiet: true, processingDelayMs: 20, face: flags.face });
  console.log(
    `e2e: ${path.basename(vsix)} in VS Code (code-server), Graphiti ${flags.face === 'mcp' ? 'MCP server ' : ''}EMULATOR at ${emulator.url}`,
  );
  try {
    for (const session of sessions) {
      if (flags.only && flags.only !== session.name) continue;
      emulator.clearRequests();
      emulator.setFaults({});
      await runSession(session, tools, vsix, supportVsix, emulator);
    }
  } finally {
    await emulator.close();
    fs.rmSync(supportVsix, { force: true });
  }
  const failed = results.filter((result) => !result.ok).length;
  const passed = results.length - failed;
  console.log(`\ne2e: ${((Date.now() - started) / 1000).toFixed(1)} s; artifacts in ${path.relative(repoRoot, artifactsDirectory)}`);
  const screenshots = fs.readdirSync(screenshotsDirectory).filter((name) => name.endsWith('.png'));
  console.log(`e2e: ${screenshots.length} screenshot(s) of the main screens in ${path.relative(repoRoot, screenshotsDirectory)}`);
  console.log(`e2e: ${passed} passed, ${failed} failed`);
  exitCode = failed === 0 && passed > 0 ? 0 : 1;
} catch (error) {
  console.error(`e2e: ${error?.stack ?? error}`);
} finally {
  processes.stopAll();
}
process.exit(exitCode);
