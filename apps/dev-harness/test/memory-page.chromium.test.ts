// The memory page in real Chromium (issue 32's proof), driven by playwright-core from the e2e setup's
// cache, against the emulator (not Graphiti) and the BUILT CLI and hook runner: the page lists a
// promoted decision with its citation and a stale mark, approves one pending memory and approves
// another edited, edits a curated memory, forgets one — gone from the emulator and from the next
// SessionStart brief — renders a fact holding `<script>` as text, and marks an open loop done (gone
// from the page and the next brief, its task_update episode sent; issue 33). Screenshots go to
// apps/dev-harness/.e2e-artifacts/memory-page/ (CI artifacts). Runs with `pnpm test:ui` (which sets
// GRAPHITI_MEMORY_PAGE_E2E=1 and installs Chromium and playwright-core once); skipped otherwise.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, promises as fs } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { readConfigFile, updateConfigFile, userConfigPath } from '@graphiti-memory/memory-node-storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hookTestTools, printedContext, waitFor } from './hook-processes.js';
import { endHookTest, ensureBuilt, harnessBinary, packageFolder, startHookTest, type HookTest } from './hook-server-fixture.js';

const ENABLED = process.env['GRAPHITI_MEMORY_PAGE_E2E'] === '1';
/** The e2e setup's pins (apps/vscode-extension/e2e/setup.mjs). */
const PLAYWRIGHT_VERSION = '1.64.1';
const cache = process.env['GRAPHITI_E2E_CACHE'] ?? path.join(process.env['XDG_CACHE_HOME'] ?? path.join(os.homedir(), '.cache'), 'graphiti-memory-e2e');
const playwrightFolder = path.join(cache, `playwright-${PLAYWRIGHT_VERSION}`, 'node_modules', 'playwright-core');
const chromiumBinary = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((candidate) => existsSync(candidate));
const screenshots = path.join(packageFolder, '.e2e-artifacts', 'memory-page');

/* The slice of playwright-core this test uses (it is loaded from the cache, untyped). */
interface Dialog {
  message(): string;
  accept(): Promise<void>;
}
interface Locator {
  filter(options: { hasText: string }): Locator;
  locator(selector: string): Locator;
  getByRole(role: string, options: { name: string; exact?: boolean }): Locator;
  first(): Locator;
  click(): Promise<void>;
  fill(text: string): Promise<void>;
  innerText(): Promise<string>;
  count(): Promise<number>;
}
interface Page {
  goto(url: string): Promise<unknown>;
  url(): string;
  locator(selector: string): Locator;
  getByRole(role: string, options: { name: string; exact?: boolean }): Locator;
  waitForSelector(selector: string, options?: { timeout?: number }): Promise<unknown>;
  evaluate<T>(script: string): Promise<T>;
  screenshot(options: { path: string; fullPage: boolean }): Promise<unknown>;
  once(event: 'dialog', listener: (dialog: Dialog) => void): void;
  on(event: 'dialog', listener: (dialog: Dialog) => void): void;
}
interface Browser {
  newPage(): Promise<Page>;
  close(): Promise<void>;
}

let test: HookTest;
let tools: ReturnType<typeof hookTestTools>;
let ui: ChildProcessWithoutNullStreams | undefined;
let browser: Browser | undefined;
let page: Page;

beforeAll(async () => {
  if (!ENABLED) return;
  if (chromiumBinary === undefined || !existsSync(path.join(playwrightFolder, 'package.json'))) {
    throw new Error(`Chromium (/usr/bin/chromium) or playwright-core (${playwrightFolder}) is missing: run pnpm test:ui, which installs them once.`);
  }
  await ensureBuilt();
  test = await startHookTest('memory-page-');
  tools = hookTestTools(test);
  await tools.harness('hooks', 'install', '--target', 'claude');
  const file = userConfigPath(test.env);
  const current = await readConfigFile(file);
  await updateConfigFile(file, { recall: { ...(current.ok ? current.values.recall : {}), timeoutMs: 5_000 } });
  await fs.rm(screenshots, { recursive: true, force: true });
  await fs.mkdir(screenshots, { recursive: true });
}, 600_000);

afterAll(async () => {
  if (!ENABLED) return;
  await browser?.close();
  ui?.kill('SIGINT');
  if (test !== undefined) await endHookTest(test);
}, 120_000);

/** `graphiti-harness ui` as a user starts it; resolves with the first line it prints. */
function startUi(): Promise<string> {
  const child = spawn(process.execPath, [harnessBinary, 'ui', '--endpoint', test.emulator.url, '--state-dir', test.stateDir, '--workspace', test.workspace], { cwd: test.workspace, env: test.env });
  ui = child;
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const newline = out.indexOf('\n');
      if (newline >= 0) resolve(out.slice(0, newline));
    });
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
    child.on('exit', (code) => reject(new Error(`graphiti-harness ui exited (${code}) before printing its address: ${err}`)));
  });
}

/** Clicks Refresh until the section shows `text` (what was sent is stored by Graphiti in the background). */
async function refreshUntil(selector: string, text: string, present = true): Promise<void> {
  await waitFor(async () => {
    // Waits for this refresh's own load: the attribute of the previous one is there already. A load
    // that failed sets nothing (the page says why): looked at all the same after a while, and clicked again.
    const loaded = () => page.evaluate<string | null>('document.body.dataset.loaded ?? null');
    const before = await loaded();
    await page.locator('#refresh').click();
    for (const started = Date.now(); Date.now() - started < 15_000; ) {
      const now = await loaded();
      if (now !== null && now !== before) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const shown = await page.locator(selector).innerText();
    return shown.includes(text) === present;
  }, `${selector} ${present ? 'shows' : 'no longer shows'} "${text}"`, 90_000);
}

const shot = (name: string) => page.screenshot({ path: path.join(screenshots, `${name}.png`), fullPage: true });

describe.skipIf(!ENABLED)('the memory page in Chromium', { timeout: 300_000 }, () => {
  it('lists, approves, edits and forgets memory as every tool sees it, and shows recalled markup as text', async () => {
    await tools.harness('promote', 'We deploy the billing API with Heroku.', '--kind', 'decision', '--scope', 'workspace');
    // The workspace has a src/ folder, but no src/legacy.ts: the fact naming it is possibly stale.
    await fs.mkdir(path.join(test.workspace, 'src'), { recursive: true });
    await fs.writeFile(path.join(test.workspace, 'src', 'parser.ts'), 'export {};\n');
    await tools.harness('promote', 'The parser lives in src/legacy.ts now.', '--kind', 'decision', '--scope', 'workspace');
    await tools.harness('promote', 'Docs never embed <script>window.__pwned = 1</script> or <img src=x onerror="window.__pwned = 2"> tags.', '--kind', 'decision', '--scope', 'workspace');
    const transcript = path.join(test.root, 'chat.jsonl');
    await fs.writeFile(transcript, [
      { role: 'user', content: 'decision: release every Friday\npreference (user): short answers', timestamp: '2026-11-28T10:00:00Z' },
      { role: 'assistant', content: 'Noted.', timestamp: '2026-11-28T10:00:05Z' },
    ].map((line) => JSON.stringify(line)).join('\n'));
    await tools.harness('ingest', transcript, '--session', 'chat-1', '--wait', '60');
    // A session that leaves two open loops (issue 33's markers).
    const loopsTranscript = path.join(test.root, 'loops.jsonl');
    await fs.writeFile(loopsTranscript, [
      { role: 'user', content: 'Wrap up for today.', timestamp: '2026-11-28T11:00:00Z' },
      { role: 'assistant', content: 'Done for today.\nTODO: add a migration test for the retry budget\nnext: check why the staging deploy is slow', timestamp: '2026-11-28T11:00:05Z' },
    ].map((line) => JSON.stringify(line)).join('\n'));
    await tools.harness('ingest', loopsTranscript, '--session', 'chat-2', '--wait', '60');
    await test.emulator.idle();

    const url = await startUi();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]{40,}$/);
    const { chromium } = createRequire(import.meta.url)(playwrightFolder) as { chromium: { launch(options: object): Promise<Browser> } };
    browser = await chromium.launch({ executablePath: chromiumBinary, args: ['--no-sandbox', '--disable-gpu'] });
    page = await browser.newPage();
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.accept();
    });
    await page.goto(url);
    // The token became a cookie and left the address.
    expect(page.url()).not.toContain('token=');
    await page.waitForSelector('body[data-loaded]', { timeout: 60_000 });

    // A promoted decision with its citation, a stale mark, markup as text.
    const memories = page.locator('#memories');
    expect(await memories.innerText()).toContain('We deploy the billing API with Heroku.');
    const heroku = page.locator('#facts li').filter({ hasText: 'Heroku' }).first();
    expect(await heroku.innerText()).toContain('from graphiti-harness');
    // The fact itself, not the emulator's stand-in fact made of the episode's header line (a
    // promotion's header names the files its text mentions: files="src/legacy.ts").
    const legacy = page.locator('#facts li').filter({ hasText: 'The parser lives in src/legacy.ts' }).first();
    expect(await legacy.innerText()).toContain('possibly stale: src/legacy.ts no longer exists');
    expect(await page.locator('#facts').innerText()).toContain('<script>window.__pwned = 1</script>');
    expect(await page.evaluate<unknown>('window.__pwned')).toBeUndefined();
    expect(await page.evaluate<number>("document.querySelectorAll('main script, main img').length")).toBe(0);
    expect(await page.locator('#audit').innerText()).toContain('curated memory');
    expect(await page.locator('#conversations').innerText()).not.toContain('No conversation captured yet');
    await shot('1-memory-page');

    // One pending memory approved, one edited and approved.
    const pending = page.locator('#pending li');
    await pending.filter({ hasText: 'release every Friday' }).getByRole('button', { name: 'Approve', exact: true }).click();
    await refreshUntil('#memories', 'release every Friday');
    await pending.filter({ hasText: 'short answers' }).getByRole('button', { name: 'Edit', exact: true }).click();
    await page.locator('#pending textarea').fill('short answers, in English');
    await page.getByRole('button', { name: 'Approve edited' }).click();
    await page.locator('nav [data-scope="user"]').click();
    await refreshUntil('#memories', 'short answers, in English');
    await shot('2-approved-user-scope');
    await page.locator('nav [data-scope="workspace"]').click();
    await page.waitForSelector('body[data-loaded]');

    // A curated memory edited from the page: the new version replaces the old one in Graphiti.
    await memories.locator('li').filter({ hasText: 'Heroku' }).getByRole('button', { name: 'Edit', exact: true }).click();
    await memories.locator('textarea').fill('We deploy the billing API with Fly.io.');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await refreshUntil('#memories', 'Fly.io');
    expect(await memories.innerText()).not.toContain('Heroku');
    expect(test.emulator.state.episodes().some((episode) => episode.content.includes('Heroku'))).toBe(false);
    await shot('3-edited');

    // A forget from the page: gone from the emulator and from the next hook brief.
    expect(printedContext(await tools.hook('SessionStart', 'session-before', { source: 'startup' }))).toContain('Fly.io');
    await memories.locator('li').filter({ hasText: 'Fly.io' }).getByRole('button', { name: 'Forget', exact: true }).click();
    await refreshUntil('#memories', 'Fly.io', false);
    expect(dialogs.at(-1)).toContain('This forgets the decision "We deploy the billing API with Fly.io."');
    expect(test.emulator.state.episodes().some((episode) => episode.content.includes('Fly.io'))).toBe(false);
    expect(test.emulator.state.facts().some((fact) => fact.fact.includes('Fly.io'))).toBe(false);
    const brief = printedContext(await tools.hook('SessionStart', 'session-after', { source: 'startup' }));
    expect(brief).not.toContain('Fly.io');
    expect(brief).toContain('release every Friday');
    await shot('4-forgotten');

    // An open loop marked done from the page: gone from the page and from the next brief, and
    // Graphiti is told with a task_update episode; the other loop stays.
    await refreshUntil('#loops', 'add a migration test for the retry budget');
    expect(await page.locator('#loops').innerText()).toContain('check why the staging deploy is slow');
    await page.locator('#loops li').filter({ hasText: 'retry budget' }).getByRole('button', { name: 'Done', exact: true }).click();
    await refreshUntil('#loops', 'retry budget', false);
    expect(await page.locator('#loops').innerText()).toContain('check why the staging deploy is slow');
    await waitFor(() => test.emulator.state.episodes().some((episode) => episode.content.includes('Loop done (memory page): add a migration test for the retry budget')), 'the task_update episode stored');
    const loopsBrief = printedContext(await tools.hook('SessionStart', 'session-loops', { source: 'startup' }));
    expect(loopsBrief).not.toContain('retry budget');
    expect(loopsBrief).toContain('check why the staging deploy is slow');
    await shot('5-loop-done');

    // Ctrl-C stops it.
    const exited = new Promise<number | null>((resolve) => ui?.once('exit', (code) => resolve(code)));
    ui?.kill('SIGINT');
    expect(await exited).toBe(0);
    ui = undefined;
  });
});
