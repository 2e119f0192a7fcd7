// Open Memory Page: starts `graphiti-harness ui` for this window's endpoint, opens the URL it prints
// first, reuses the running page, and says how to install the CLI when it is not there.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { activateExtension } from '../test-support/extension-harness.js';
import { testHost } from '../test-support/vscode-double.js';
import { INSTALL_COMMAND, OPEN_MEMORY_PAGE, pageUrlOf } from './open-memory-page-command.js';

const folders: string[] = [];
afterEach(() => {
  vi.unstubAllEnvs();
  for (const folder of folders.splice(0)) fs.rmSync(folder, { recursive: true, force: true });
});

/** A stand-in `graphiti-harness` on PATH: records each start and the endpoint it was given, prints a URL, stays up. */
function fakeHarness(): { readonly starts: () => string[] } {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'fake-harness-'));
  folders.push(folder);
  const log = path.join(folder, 'starts.log');
  const script = path.join(folder, 'graphiti-harness');
  fs.writeFileSync(
    script,
    `#!${process.execPath}\nrequire('node:fs').appendFileSync(${JSON.stringify(log)}, process.argv.slice(2).join(' ') + ' ' + process.env.GRAPHITI_MEMORY_ENDPOINT + '\\n');\nconsole.log('http://127.0.0.1:45678/?token=secret-token');\nconsole.log('Memory page for this workspace. Ctrl-C stops it.');\nsetInterval(() => undefined, 1000);\n`,
    { mode: 0o755 },
  );
  vi.stubEnv('PATH', `${folder}${path.delimiter}${process.env.PATH ?? ''}`);
  return { starts: () => (fs.existsSync(log) ? fs.readFileSync(log, 'utf8').trim().split('\n') : []) };
}

describe('Open Memory Page', () => {
  it('starts graphiti-harness ui for the endpoint in force, opens the URL it prints first, and reuses the running page', async () => {
    const harness = fakeHarness();
    const extension = await activateExtension();
    const first = await extension.command<{ ok: boolean; url: string }>(OPEN_MEMORY_PAGE);
    expect(first).toMatchObject({ ok: true, url: 'http://127.0.0.1:45678/?token=secret-token' });
    expect(harness.starts()).toEqual([`ui ${extension.emulator.url}`]);
    expect(await extension.command(OPEN_MEMORY_PAGE)).toMatchObject({ ok: true, url: first.url });
    expect(harness.starts()).toHaveLength(1);
  });

  it('says how to install graphiti-harness when it is not found', async () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'no-harness-'));
    folders.push(empty);
    vi.stubEnv('PATH', empty);
    const extension = await activateExtension();
    const result = await extension.command<{ ok: boolean; message: string }>(OPEN_MEMORY_PAGE);
    expect(result.ok).toBe(false);
    expect(result.message).toContain(INSTALL_COMMAND);
    expect(testHost().shownMessages.at(-1)?.items).toContain('Copy Install Command');
  });

  it('reads only a loopback address from the first line', () => {
    expect(pageUrlOf('http://127.0.0.1:4000/?token=a')).toBe('http://127.0.0.1:4000/?token=a');
    expect(pageUrlOf('Memory page: http://localhost:4000/#t=1 (Ctrl-C stops it)')).toBe('http://localhost:4000/#t=1');
    expect(pageUrlOf('http://evil.example:4000/')).toBeUndefined();
  });
});
