// The key and hash below are what Codex 0.169.0 itself reported (`codex app-server`, `hooks/list`:
// `key`, `currentHash`; and `trustStatus: "trusted"` once config.toml held the hash computed here)
// for the hooks.json entries named, so the install's trust is Codex's own.
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'smol-toml';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { codexHookHash, codexHookKey, codexTrustStep, ourCodexHooks, withTrustedHashes } from './codex-hook-trust.js';
import { isOurHookCommand } from '../installers/hook-command.js';

describe("Codex's hook trust identity", () => {
  it('computes the hash Codex 0.169.0 reports for a command hook', () => {
    expect(codexHookHash('Stop', { command: 'echo hi', timeout: 15 })).toBe('sha256:10d5f0c710adb08a62a307365e25552668e13e147dfcf1f841b97392ec190ae2');
    expect(codexHookHash('SessionStart', { command: '/usr/bin/node /x/hook-runner.cjs --event SessionStart --agent codex --installed-by graphiti-harness', timeout: 10 })).toBe(
      'sha256:1576ac6d131e0c83bba93024f882c4d13fdf3a48e0c680bcee07f470389c6255',
    );
    expect(codexHookHash('UserPromptSubmit', { command: 'echo a', timeout: 10 })).toBe('sha256:91c67fba88a32c55099e6e123b1304074d906ff22ece2292f79a7dade5a1c262');
    expect(codexHookHash('SessionEnd', { command: 'echo b', timeout: 3 })).toBe('sha256:7fdcfde7cebf533caec0e61dd15d95edd097d182e378b222f3398ee015d76340');
  });

  it('keys a hook by the file, the event in snake_case and its place', () => {
    expect(codexHookKey('/home/me/.codex/hooks.json', 'UserPromptSubmit', 1, 0)).toBe('/home/me/.codex/hooks.json:user_prompt_submit:1:0');
    const file = { hooks: { Stop: [{ hooks: [{ type: 'command', command: 'mine.sh' }] }, { hooks: [{ type: 'command', command: 'node r.cjs --event Stop --agent codex --installed-by x', timeout: 15 }] }] } };
    expect(ourCodexHooks('/h/hooks.json', file, isOurHookCommand)).toEqual([{ key: '/h/hooks.json:stop:1:0', hash: codexHookHash('Stop', { command: 'node r.cjs --event Stop --agent codex --installed-by x', timeout: 15 }) }]);
  });
});

describe('withTrustedHashes', () => {
  const entry = { key: '/h/.codex/hooks.json:stop:0:0', hash: 'sha256:abc' };
  const config = '# my settings\nmodel = "o4"  # the default\n\n[features]\nplugins = false\n';

  it('appends our table and keeps every other byte', () => {
    const edited = withTrustedHashes(config, [entry]);
    expect(edited).toEqual({ ok: true, text: `${config}\n[hooks.state."/h/.codex/hooks.json:stop:0:0"]\ntrusted_hash = "sha256:abc"\n` });
    if (!edited.ok) return;
    expect(withTrustedHashes(edited.text, [entry])).toEqual({ ok: true, text: edited.text });
    const changed = withTrustedHashes(edited.text, [{ ...entry, hash: 'sha256:def' }]);
    expect(changed.ok && changed.text).toBe(edited.text.replace('sha256:abc', 'sha256:def'));
    expect(withTrustedHashes(edited.text, [], [entry.key])).toEqual({ ok: true, text: config });
  });

  it("keeps the user's own keys of the table (enabled) and other hooks' trust", () => {
    const own = `[hooks.state."/h/.codex/hooks.json:stop:0:0"]\nenabled = true\n\n[hooks.state."/h/.codex/hooks.json:stop:1:0"]\ntrusted_hash = "sha256:users"\n`;
    const edited = withTrustedHashes(own, [entry]);
    expect(edited.ok).toBe(true);
    if (!edited.ok) return;
    expect(parse(edited.text)).toEqual({ hooks: { state: { [entry.key]: { enabled: true, trusted_hash: 'sha256:abc' }, '/h/.codex/hooks.json:stop:1:0': { trusted_hash: 'sha256:users' } } } });
  });

  it('refuses, writing nothing, where a textual edit cannot be made safely', () => {
    expect(withTrustedHashes('model = \n', [entry])).toMatchObject({ ok: false, problem: expect.stringMatching(/not valid TOML/) });
    // hooks.state given inline: a table of ours would redefine it.
    expect(withTrustedHashes('hooks = { state = {} }\n', [entry])).toMatchObject({ ok: false, problem: expect.stringMatching(/would not be valid TOML/) });
  });
});

describe('the Codex trust step on files', () => {
  let home: string;
  beforeEach(async () => {
    home = await fs.mkdtemp(path.join(os.tmpdir(), 'codex-trust-'));
  });
  afterEach(async () => {
    await fs.rm(home, { recursive: true, force: true });
  });

  it('records exactly our hooks in $CODEX_HOME/config.toml, reports them trusted, and forgets only them', async () => {
    const codexHome = path.join(home, 'elsewhere');
    const hookFile = path.join(codexHome, 'hooks.json');
    const ours = 'node r.cjs --event Stop --agent codex --installed-by graphiti-harness';
    await fs.mkdir(codexHome, { recursive: true });
    await fs.writeFile(hookFile, JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: 'mine.sh', timeout: 5 }] }, { hooks: [{ type: 'command', command: ours, timeout: 15 }] }] } }));
    await fs.writeFile(path.join(codexHome, 'config.toml'), 'model = "o4"\n\n[hooks.state."' + hookFile + ':stop:0:0"]\ntrusted_hash = "sha256:the-users-own"\n');
    const step = codexTrustStep(isOurHookCommand);
    const env = { CODEX_HOME: codexHome };
    expect(await step.status({ home, env, hookFile })).toMatchObject({ trusted: false, detail: expect.stringMatching(/1 of 1 not trusted/) });
    expect(await step.record({ home, env, hookFile })).toEqual({ file: path.join(codexHome, 'config.toml'), changed: true });
    expect(await step.status({ home, env, hookFile })).toMatchObject({ trusted: true });
    const state = (parse(await fs.readFile(path.join(codexHome, 'config.toml'), 'utf8')) as { hooks: { state: Record<string, { trusted_hash: string }> } }).hooks.state;
    expect(state[`${hookFile}:stop:1:0`]?.trusted_hash).toBe(codexHookHash('Stop', { command: ours, timeout: 15 }));
    expect(await step.forget({ home, env, hookFile })).toMatchObject({ changed: true });
    expect(await fs.readFile(path.join(codexHome, 'config.toml'), 'utf8')).toBe('model = "o4"\n\n[hooks.state."' + hookFile + ':stop:0:0"]\ntrusted_hash = "sha256:the-users-own"\n');
  });

  it('leaves a config.toml it cannot edit safely untouched and names the step in Codex', async () => {
    const hookFile = path.join(home, '.codex', 'hooks.json');
    await fs.mkdir(path.dirname(hookFile), { recursive: true });
    await fs.writeFile(hookFile, JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: 'node r.cjs --event Stop --agent codex --installed-by x', timeout: 15 }] }] } }));
    await fs.writeFile(path.join(home, '.codex', 'config.toml'), 'hooks = { state = {} }\n');
    const recorded = await codexTrustStep(isOurHookCommand).record({ home, env: {}, hookFile });
    expect(recorded).toMatchObject({ changed: false, manualStep: expect.stringMatching(/left untouched.*\/hooks/) });
    expect(await fs.readFile(path.join(home, '.codex', 'config.toml'), 'utf8')).toBe('hooks = { state = {} }\n');
  });
});
