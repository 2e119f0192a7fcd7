// Text from the server or from a pasted turn reaches the terminal only through the one sanitiser:
// `episodes`, `health` and `pending list` printed terminal escapes raw (a title change, a cleared
// screen), `recall` and the hook output already stripped them.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { GraphitiClient } from '@graphiti-memory/graphiti-client';
import { FilePendingMemoryStore, sharedStateFiles } from '@graphiti-memory/memory-node-storage';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { closeEmulatorCommands, openEmulatorCommands, runCommand, type EmulatorCommandsFixture } from '../test-support/emulator-commands.js';

const HOSTILE = 'title\u001b]0;pwned\u0007 clear\u001b[2J\u001b[H bell\u0007 csi\u009b31m bidi\u202e end';
/** Anything a terminal would act on: ESC, BEL, C1 controls, bidi overrides. */
// eslint-disable-next-line no-control-regex -- the test looks for exactly these characters
const TERMINAL_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/u;

let fixture: EmulatorCommandsFixture;

beforeEach(async () => {
  fixture = await openEmulatorCommands('harness-terminal-output-', {});
});

afterEach(() => closeEmulatorCommands(fixture));

const harness = (args: readonly string[]) => runCommand(fixture.folder, args);

describe('what the CLI prints from the server or a user is sanitised', () => {
  it('episodes: a stored name and content with escapes print without them', async () => {
    const { emulator } = fixture;
    expect((await harness(['promote', 'We release from main only.', '--kind', 'decision', '--scope', 'workspace', '--endpoint', emulator.url])).exitCode).toBe(0);
    const group = emulator.state.episodes()[0]?.group_id ?? '';
    const client = new GraphitiClient({ baseUrl: emulator.url, maxRetries: 0 });
    await client.addMessages({ group_id: group, messages: [{ name: `other\u001b[2J.1`, role: 'user', role_type: 'user', content: HOSTILE, timestamp: '2026-11-20T10:00:00Z' }] });
    await client.close();
    await emulator.idle();
    const listed = await harness(['episodes', '--scope', 'workspace', '--last', '5', '--endpoint', emulator.url]);
    expect(listed.exitCode, listed.err).toBe(0);
    expect(listed.out).toContain('title clear bell csi bidi end');
    expect(listed.out).not.toMatch(TERMINAL_CONTROL);
  });

  it('pending list: a pending memory whose text holds escapes prints without them', async () => {
    const store = new FilePendingMemoryStore({ filePath: sharedStateFiles(path.join(fixture.folder, 'state')).pendingMemories });
    await store.add({ id: 'p1', kind: 'decision', scope: 'workspace', text: HOSTILE, source: 'directive', createdAt: Date.parse('2026-11-20T10:00:00Z'), sessionId: 's1' });
    const listed = await harness(['pending', 'list']);
    expect(listed.exitCode, listed.err).toBe(0);
    expect(listed.out).toContain('title clear bell csi bidi end');
    expect(listed.out).not.toMatch(TERMINAL_CONTROL);
  });

  it('health: a server whose status holds escapes is reported without them', async () => {
    const server = http.createServer((request, response) => {
      const body = request.url?.startsWith('/healthcheck') ? { status: HOSTILE } : request.url?.startsWith('/episodes') ? [] : undefined;
      response.writeHead(body === undefined ? 404 : 200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body ?? { detail: 'Not Found' }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const checked = await harness(['health', '--endpoint', url]);
      const printed = `${checked.out}\n${checked.err}`;
      expect(printed).toContain('title clear bell csi bidi end');
      expect(printed).not.toMatch(TERMINAL_CONTROL);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
