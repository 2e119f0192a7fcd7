// `graphiti-harness edit EPISODE_UUID "text"` (issue 32 item 3): the new version is stored, the old
// episode and its facts are gone, recall answers only the new one; an unknown uuid or a captured
// conversation is refused with a clear error, and nothing changes.
import { afterEach, describe, expect, it } from 'vitest';
import { closeEmulatorCommands, openEmulatorCommands, runCommand, type EmulatorCommandsFixture } from '../test-support/emulator-commands.js';

let fixture: EmulatorCommandsFixture | undefined;

afterEach(async () => {
  if (fixture !== undefined) await closeEmulatorCommands(fixture);
  fixture = undefined;
});

describe('edit', () => {
  it('supersedes a promoted decision: a new episode in its group, the old one deleted with its facts', async () => {
    fixture = await openEmulatorCommands('harness-edit-');
    const endpoint = ['--endpoint', fixture.emulator.url];
    const promoted = await runCommand(fixture.folder, ['promote', 'We deploy the billing API with Heroku.', '--kind', 'decision', '--scope', 'workspace', '--json', ...endpoint]);
    expect(promoted.exitCode, promoted.err).toBe(0);
    const old = fixture.emulator.state.episodes().find((episode) => episode.content.includes('Heroku'))!;

    const edited = await runCommand(fixture.folder, ['edit', old.uuid, 'We deploy the billing API with Fly.io.', '--json', ...endpoint]);
    expect(edited.exitCode, edited.err).toBe(0);
    expect(edited.json()).toMatchObject({
      ok: true,
      status: 'edited',
      episode: old.uuid,
      previous: { kind: 'decision', scope: 'workspace', text: 'We deploy the billing API with Heroku.', groupId: old.group_id },
      kind: 'decision',
      scope: 'workspace',
      groupId: old.group_id,
      stored: true,
    });
    expect(fixture.emulator.state.episodes().some((episode) => episode.uuid === old.uuid)).toBe(false);
    expect(fixture.emulator.state.episodes().filter((episode) => episode.content.includes('Fly.io')).map((episode) => episode.group_id)).toEqual([old.group_id]);
    expect(fixture.emulator.state.facts().filter((fact) => fact.fact.includes('Heroku'))).toEqual([]);

    const recall = await runCommand(fixture.folder, ['recall', 'How do we deploy the billing API?', '--json', ...endpoint]);
    const facts = JSON.stringify(recall.json()['facts']);
    expect(facts).toContain('Fly.io');
    expect(facts).not.toContain('Heroku');

    const words = await runCommand(fixture.folder, ['edit', fixture.emulator.state.episodes().find((episode) => episode.content.includes('Fly.io'))!.uuid, 'We deploy with Fly.io from main.', ...endpoint]);
    expect(words.exitCode, words.err).toBe(0);
    expect(words.out).toContain('edited the decision (workspace)');
  }, 90_000);

  it('refuses an unknown uuid and a captured conversation with what to do instead; nothing changes', async () => {
    fixture = await openEmulatorCommands('harness-edit-refused-');
    const endpoint = ['--endpoint', fixture.emulator.url];
    const unknown = await runCommand(fixture.folder, ['edit', 'no-such-episode', 'Anything.', '--json', ...endpoint]);
    expect(unknown.exitCode).toBe(1);
    expect(unknown.json()).toMatchObject({ ok: false, error: { status: 'not-found' } });
    const plain = await runCommand(fixture.folder, ['edit', 'no-such-episode', 'Anything.', ...endpoint]);
    expect(plain.err).toContain('no episode no-such-episode was found');
    expect(plain.err).toContain('episodes --scope workspace --json');

    // A captured turn in the workspace group: not a curated memory.
    await runCommand(fixture.folder, ['promote', 'Keep this decision.', '--kind', 'decision', '--scope', 'workspace', ...endpoint]);
    const group = fixture.emulator.state.episodes()[0]!.group_id;
    await fetch(`${fixture.emulator.url}/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ group_id: group, messages: [{ content: 'We talked about lunch.', role_type: 'user', role: 'alice', name: 'graphiti-memory.turn.t1.user' }] }),
    });
    await expect.poll(() => fixture!.emulator.state.episodes().find((episode) => episode.content.includes('lunch')), { timeout: 10_000 }).toBeDefined();
    const turn = fixture.emulator.state.episodes().find((episode) => episode.content.includes('lunch'))!;
    const curated = await runCommand(fixture.folder, ['edit', turn.uuid, 'Anything.', ...endpoint]);
    expect(curated.exitCode).toBe(1);
    expect(curated.err).toContain('is not a curated memory');
    expect(curated.err).toContain(`forget --episode ${turn.uuid}`);
    expect(fixture.emulator.state.episodes()).toHaveLength(2);

    const usage = await runCommand(fixture.folder, ['edit', 'bad uuid!', 'Anything.', ...endpoint]);
    expect(usage.exitCode).toBe(2);
  }, 90_000);
});
