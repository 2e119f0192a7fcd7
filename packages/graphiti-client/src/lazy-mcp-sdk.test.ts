// The MCP SDK (its zod schemas, ajv) is evaluated only when an MCP session opens. A child process
// imports the BUILT package (dist/index.js, what the apps and npm users load) under an ESM loader
// hook that writes down every module URL Node loads, in order, to a file; the test reads which SDK
// modules were loaded by the end of each step. The emulator runs here, over real HTTP.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { startEmulator, type RunningEmulator } from '@graphiti-memory/graphiti-emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const built = fileURLToPath(new URL('../dist/index.js', import.meta.url));
const SDK = '/@modelcontextprotocol/sdk/';

// Runs in Node's hooks thread; appends synchronously, so a line is written before its module runs.
const HOOKS = `import { appendFileSync } from 'node:fs';
let log;
export function initialize(data) { log = data.log; }
export async function load(url, context, nextLoad) {
  if (url.startsWith('file:')) appendFileSync(log, url + '\\n');
  return nextLoad(url, context);
}
`;

const REGISTER = `import { register } from 'node:module';
register(new URL('./hooks.mjs', import.meta.url), { data: { log: process.env.LOAD_LOG } });
`;

// One scenario per child. After each step it notes how many SDK modules had been loaded so far.
const CHILD = `import { readFileSync } from 'node:fs';
const [clientUrl, scenario, restUrl, mcpUrl] = process.argv.slice(2);
const loaded = () => readFileSync(process.env.LOAD_LOG, 'utf8').split('\\n').filter(Boolean);
const steps = [];
const step = (name, extra = {}) => steps.push({ name, sdkModules: loaded().filter((url) => url.includes(${JSON.stringify(SDK)})).length, ...extra });
const graphiti = await import(clientUrl);
step('imported', { clientLoaded: loaded().includes(clientUrl) });
const group = { group_id: 'lazy', messages: [{ role_type: 'user', role: 'ada', content: 'We use pnpm.' }] };
if (scenario === 'rest-then-mcp') {
  const rest = new graphiti.GraphitiClient({ baseUrl: restUrl, timeoutMs: 5000 });
  await rest.healthcheck();
  await rest.addMessages(group);
  await rest.search({ group_ids: ['lazy'], query: 'pnpm' });
  const missing = await rest.getEntityEdge('no-such-edge').catch((error) => error.kind);
  await rest.close();
  step('rest', { missing });
  const byKind = graphiti.createGraphitiClient({ baseUrl: restUrl, kind: 'rest' });
  await byKind.search({ group_ids: ['lazy'], query: 'pnpm' });
  await byKind.close();
  const auto = graphiti.createGraphitiClient({ baseUrl: restUrl });
  const face = (await auto.serverFace()).kind;
  await auto.search({ group_ids: ['lazy'], query: 'pnpm' });
  await auto.close();
  step('auto-rest', { face });
  const mcp = new graphiti.GraphitiMcpClient({ baseUrl: mcpUrl, timeoutMs: 5000 });
  const usage = await mcp.search({ group_ids: null, query: 'pnpm' }).catch((error) => error.kind);
  step('mcp-constructed', { usage });
  await mcp.addMessages(group);
  step('mcp-called');
  await mcp.close();
} else {
  const auto = graphiti.createGraphitiClient({ baseUrl: mcpUrl });
  step('auto-constructed');
  const face = (await auto.serverFace()).kind;
  step('auto-mcp', { face });
  await auto.close();
}
process.stdout.write(JSON.stringify(steps));
`;

interface Step {
  readonly name: string;
  readonly sdkModules: number;
  readonly [extra: string]: unknown;
}

let rest: RunningEmulator;
let mcp: RunningEmulator;
let work: string;

beforeAll(async () => {
  if (!existsSync(built)) throw new Error(`${built} is missing: build the package first (pnpm --filter @graphiti-memory/graphiti-client build).`);
  work = mkdtempSync(path.join(os.tmpdir(), 'graphiti-lazy-sdk-'));
  writeFileSync(path.join(work, 'hooks.mjs'), HOOKS);
  writeFileSync(path.join(work, 'register.mjs'), REGISTER);
  writeFileSync(path.join(work, 'child.mjs'), CHILD);
  [rest, mcp] = await Promise.all([startEmulator({ processingDelayMs: 1 }), startEmulator({ processingDelayMs: 1, face: 'mcp' })]);
});

afterAll(async () => {
  await Promise.all([rest.close(), mcp.close()]);
  rmSync(work, { recursive: true, force: true });
});

async function runChild(scenario: string): Promise<Map<string, Step>> {
  const log = path.join(work, `${scenario}.log`);
  writeFileSync(log, '');
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', pathToFileURL(path.join(work, 'register.mjs')).href, path.join(work, 'child.mjs'), pathToFileURL(built).href, scenario, rest.url, mcp.url],
    { env: { ...process.env, LOAD_LOG: log }, timeout: 30_000 },
  );
  const steps = JSON.parse(stdout) as Step[];
  return new Map(steps.map((step) => [step.name, step]));
}

describe('the MCP SDK is loaded only when an MCP session opens', () => {
  it('REST calls, typed errors, kind "rest" and an auto probe that finds /healthcheck never load it; the first MCP call does', async () => {
    const steps = await runChild('rest-then-mcp');
    // The loader hook saw the package itself: an empty log cannot pass for "not loaded".
    expect(steps.get('imported')).toMatchObject({ clientLoaded: true, sdkModules: 0 });
    expect(steps.get('rest')).toMatchObject({ sdkModules: 0, missing: 'not-found' });
    expect(steps.get('auto-rest')).toMatchObject({ sdkModules: 0, face: 'rest' });
    // Constructing an MCP client, and a call refused before sending, open no session.
    expect(steps.get('mcp-constructed')).toMatchObject({ sdkModules: 0, usage: 'usage' });
    expect(steps.get('mcp-called')?.sdkModules).toBeGreaterThan(0);
  }, 40_000);

  it('an auto probe that reaches the MCP initialize loads it', async () => {
    const steps = await runChild('auto-mcp');
    expect(steps.get('auto-constructed')).toMatchObject({ sdkModules: 0 });
    expect(steps.get('auto-mcp')).toMatchObject({ face: 'mcp' });
    expect(steps.get('auto-mcp')?.sdkModules).toBeGreaterThan(0);
  }, 40_000);
});
