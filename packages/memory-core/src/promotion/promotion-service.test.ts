import { messageSchema } from '@graphiti-memory/graphiti-client';
import { describe, expect, it } from 'vitest';
import { FakeValues } from '../../test-support/secret-corpus/fake-values.js';
import { createPolicyServices } from '../../test-support/memory-services.js';
import { fullWidth } from '../../test-support/secret-corpus/secret-corpus.js';
import { promotionMessageName } from './promotion-service.js';

const githubToken = `ghp_${new FakeValues('promotion tests').alphanumeric(36)}`;

describe('what a promotion applies to (seed 000: APPLIES_TO)', () => {
  it('records the repository, the files its text names and, only with git metadata on, the branch', async () => {
    const workspace = { gitRemote: 'https://ada:secret@github.com/Ada/Engine.git', gitMetadata: { branch: 'feature/outbox', commit: 'abc123' } };
    const text = 'Keep the outbox journal in src/outbox/journal.ts append-only; see docs/how-it-works.md.';
    const withoutGit = createPolicyServices({ workspace });
    const planned = await withoutGit.promotion.plan({ kind: 'decision', scope: 'workspace', text, now: 1 });
    if (!planned.ok) throw new Error(planned.reason);
    expect(planned.entry.message.content).toContain('repository="github.com/ada/engine" files="src/outbox/journal.ts, docs/how-it-works.md">');
    expect(planned.entry.message.content).toContain('\nApplies to repository github.com/ada/engine, files src/outbox/journal.ts, docs/how-it-works.md.\n');
    expect(planned.entry.message.content).not.toMatch(/branch|secret/);
    const withGit = createPolicyServices({ workspace, settings: { enabled: true, endpoint: 'http://localhost:8000', includeGitMetadata: true } });
    const planned2 = await withGit.promotion.plan({ kind: 'decision', scope: 'workspace', text, now: 1 });
    if (!planned2.ok) throw new Error(planned2.reason);
    expect(planned2.entry.message.content).toContain('branch="feature/outbox"');
    // The name (de-duplication) does not depend on where it applies.
    expect(planned2.entry.message.name).toBe(planned.entry.message.name);
  });
});

describe('DefaultPromotionService', () => {
  it('plans one system message holding the episode block, for the workspace group', async () => {
    const services = createPolicyServices();
    const planned = await services.promotion.plan({
      kind: 'decision',
      scope: 'workspace',
      text: '  Adopt zod for every schema.  ',
      now: new Date('2026-02-03T04:05:06Z'),
    });
    expect(planned.ok).toBe(true);
    if (!planned.ok) return;
    expect(planned.entry.groupId).toBe(await services.groups.resolve('workspace'));
    expect(planned.entry.message).toEqual({
      content:
        '<graphiti_episode kind="decision" scope="workspace" recorded_at="2026-02-03T04:05:06.000Z">\nAdopt zod for every schema.\n</graphiti_episode>',
      role_type: 'system',
      role: null,
      name: await promotionMessageName('decision', 'workspace', 'Adopt zod for every schema.'),
      timestamp: '2026-02-03T04:05:06.000Z',
      source_description: 'graphiti-memory promotion; kind=decision; scope=workspace',
    });
    expect(messageSchema.safeParse(planned.entry.message).success).toBe(true);
    expect(services.telemetry.ofType('promoted')).toEqual([{ type: 'promoted', kind: 'decision', scope: 'workspace' }]);
  });

  it('names a promotion by kind, scope and text only: stable across time, distinct otherwise', async () => {
    const services = createPolicyServices();
    const plan = async (kind: string, scope: 'workspace' | 'user', text: string, now: number) => {
      const planned = await services.promotion.plan({ kind, scope, text, now });
      if (!planned.ok) throw new Error(`refused: ${planned.reason}`);
      return planned.entry;
    };
    const first = await plan('preference', 'user', 'Use pnpm', 1);
    expect((await plan('preference', 'user', 'Use pnpm ', 2)).message.name).toBe(first.message.name);
    expect(first.message.name).toMatch(/^graphiti-memory\.promotion\.[0-9a-f]{32}$/);
    expect((await plan('preference', 'workspace', 'Use pnpm', 1)).message.name).not.toBe(first.message.name);
    expect((await plan('terminology', 'user', 'Use pnpm', 1)).message.name).not.toBe(first.message.name);
    expect((await plan('preference', 'user', 'Use npm', 1)).message.name).not.toBe(first.message.name);
    expect(first.groupId).toBe(await services.groups.resolve('user'));
  });

  it('refuses text with a secret, and counts the drop without content', async () => {
    const services = createPolicyServices();
    const planned = await services.promotion.plan({
      kind: 'procedure',
      scope: 'workspace',
      text: `Deploy with token ${githubToken}`,
    });
    expect(planned).toEqual({ ok: false, reason: 'secret' });
    expect(services.telemetry.events).toEqual([{ type: 'dropped', messages: 1, reason: 'secret' }]);
  });

  const fake = new FakeValues('promotion look-alikes');
  const awsKey = `AKIA${fake.chars('ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789', 16)}`;
  it.each([
    ['an aws key with a zero-width space inside', `Deploy as ${awsKey.slice(0, 9)}\u200b${awsKey.slice(9)}`],
    ['a github token in full-width letters', `Deploy with token ${fullWidth(githubToken)}`],
    ['an aws key split by a newline', `Deploy as ${awsKey.slice(0, 12)}\n${awsKey.slice(12)} on Fridays`],
    ['a password in plain words', 'The staging password is hunter2-Lk8q, remember it'],
    ['a pwd in words', 'Staging box: pwd: Wq7$bnm1'],
  ])('refuses a promotion holding %s', async (_name, text) => {
    const services = createPolicyServices();
    const planned = await services.promotion.plan({ kind: 'procedure', scope: 'workspace', text });
    expect(planned).toEqual({ ok: false, reason: 'secret' });
  });

  it.each([
    ['invalid-kind', { kind: 'rumour', scope: 'workspace', text: 'x' }],
    ['empty', { kind: 'lesson_learned', scope: 'workspace', text: '   ' }],
    ['no-scope', { kind: 'decision', scope: 'session', text: 'x' }],
  ] as const)('refuses with %s', async (reason, request) => {
    const services = createPolicyServices();
    // @ts-expect-error -- the session scope is refused at run time too, for untyped callers.
    expect(await services.promotion.plan(request)).toEqual({ ok: false, reason });
  });

  it('refuses with no-scope when the workspace cannot be identified', async () => {
    const services = createPolicyServices({ workspace: { folderUris: [] } });
    expect(await services.promotion.plan({ kind: 'decision', scope: 'workspace', text: 'x' })).toEqual({
      ok: false,
      reason: 'no-scope',
    });
  });

  it('refuses everything while the gate is closed', async () => {
    const services = createPolicyServices({ consentFor: null });
    expect(await services.promotion.plan({ kind: 'decision', scope: 'workspace', text: 'x' })).toEqual({
      ok: false,
      reason: 'gate-closed',
    });
    expect(services.telemetry.events).toEqual([{ type: 'dropped', messages: 1, reason: 'gate-closed' }]);
  });

  it('keeps long text within maxMessageChars, marked as cut', async () => {
    const services = createPolicyServices({ settings: { enabled: true, maxMessageChars: 400 } });
    const planned = await services.promotion.plan({ kind: 'procedure', scope: 'workspace', text: 'step '.repeat(500) });
    expect(planned.ok).toBe(true);
    if (!planned.ok) return;
    expect(planned.entry.message.content.length).toBeLessThanOrEqual(400);
    expect(planned.entry.message.content).toMatch(/… \[truncated \d+ characters\]\n<\/graphiti_episode>$/);
  });
});
