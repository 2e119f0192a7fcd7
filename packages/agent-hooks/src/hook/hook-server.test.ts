// A server of a build nobody runs any more should not wait out its idle while: once its runner file
// names another build (an updated extension copied a new runner over it, the harness was rebuilt)
// it leaves. Served in this process on a real socket, with a short check interval.
import { existsSync, promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pingHookServer } from './hook-forward.js';
import { HOOK_SERVER_PROTOCOL, hookServerPlace, type HookServerPlace } from './hook-server-place.js';
import { serveHooks } from './hook-server.js';

const OLD = 'aaaaaaaaaaaa';
const NEW = 'bbbbbbbbbbbb';

let root: string;
let entry: string;
let place: HookServerPlace;
const savedConfigDirectory = process.env['GRAPHITI_MEMORY_CONFIG_DIR'];

/** A runner folder as the build script or the extension leaves it: the entry names its core. */
async function placeRunner(build: string): Promise<void> {
  await fs.writeFile(path.join(root, 'runner', `hook-runner-core-${build}.cjs`), '// core');
  await fs.writeFile(entry, `const build = "${build}";\n`);
}

beforeEach(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'hook-server-build-'));
  await fs.mkdir(path.join(root, 'runner'));
  await fs.mkdir(path.join(root, 'config'));
  // The server leaves when the config folder it serves is gone: this one stays.
  process.env['GRAPHITI_MEMORY_CONFIG_DIR'] = path.join(root, 'config');
  entry = path.join(root, 'runner', 'hook-runner.cjs');
  const found = hookServerPlace({ HOME: root, GRAPHITI_MEMORY_CONFIG_DIR: path.join(root, 'config') }, OLD);
  if (found === undefined) throw new Error('no private folder for the hook server');
  place = found;
});

afterEach(async () => {
  await pingHookServer(place, OLD, HOOK_SERVER_PROTOCOL, 'stop', 200);
  if (savedConfigDirectory === undefined) delete process.env['GRAPHITI_MEMORY_CONFIG_DIR'];
  else process.env['GRAPHITI_MEMORY_CONFIG_DIR'] = savedConfigDirectory;
  await fs.rm(root, { recursive: true, force: true });
});

describe('a hook server whose runner file changes build', () => {
  it('keeps serving while its runner is its build, and leaves (removing its files) once the runner names another', async () => {
    await placeRunner(OLD);
    let stopped = false;
    const served = serveHooks({ place, build: OLD, entryPath: entry, checkMs: 50 }).then(() => (stopped = true));
    for (let attempt = 0; (await pingHookServer(place, OLD, HOOK_SERVER_PROTOCOL, 'ping', 100))?.kind !== 'pong'; attempt++) {
      if (attempt > 100) throw new Error('the server did not come up');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // Several checks pass with the runner unchanged (an older core left beside it changes nothing).
    await fs.writeFile(path.join(root, 'runner', 'hook-runner-core-cccccccccccc.cjs'), '// stale core');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(stopped).toBe(false);
    expect(existsSync(place.info)).toBe(true);
    // An update, in the order the extension and the build script place it: the core, then the entry.
    await placeRunner(NEW);
    await served;
    expect(existsSync(place.info)).toBe(false);
    expect(await pingHookServer(place, OLD, HOOK_SERVER_PROTOCOL, 'ping', 100)).toBeUndefined();
  });
});
