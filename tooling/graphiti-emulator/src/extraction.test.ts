import { afterEach, describe, expect, it } from 'vitest';
import { contradicts, extractStatements, nameEmbedding, splitSentences } from './extraction.js';
import { startEmulator } from './server.js';
import { message, post } from './test-support/http.js';
import type { RunningEmulator } from './types.js';

describe('stand-in extraction', () => {
  it('splits sentences and skips one-word fragments', () => {
    expect(splitSentences('Alice likes tea. Bob uses npm!\nOk.\nWhy not?')).toEqual(['Alice likes tea', 'Bob uses npm', 'Why not']);
    // A line that is only a tag frames the memory; it is no statement.
    expect(splitSentences('<graphiti_episode kind="decision" scope="workspace">\nWe deploy with blue-green releases.\n</graphiti_episode>')).toEqual(['We deploy with blue-green releases']);
  });

  it('finds subject, relation and object', () => {
    expect(extractStatements('The build uses pnpm. Alice no longer likes tea. Ship it')).toEqual([
      { sentence: 'The build uses pnpm', subject: 'The build', relation: 'USES', object: 'pnpm', marker: null },
      { sentence: 'Alice no longer likes tea', subject: 'Alice', relation: 'LIKES', object: 'tea', marker: 'negation' },
      { sentence: 'Ship it', subject: 'Ship', relation: 'IT', object: '', marker: null },
    ]);
    expect(extractStatements('We switched to yarn instead')[0]?.marker).toBe('replacement');
  });

  it('decides contradictions by subject, marker, shared words and time', () => {
    const [negation] = extractStatements("Alice doesn't like tea anymore");
    const [replacement] = extractStatements('We switched to pnpm');
    const [plain] = extractStatements('Alice likes coffee');
    if (negation === undefined || replacement === undefined || plain === undefined) throw new Error('extraction failed');
    const older = (sentence: string, validAtMs = 0) => ({ ...extractStatements(sentence)[0]!, validAtMs });
    expect(contradicts(negation, 10, older('Alice likes tea'))).toBe(true);
    expect(contradicts(negation, 10, older('Alice plays chess'))).toBe(false);
    expect(contradicts(negation, 10, older('Bob likes tea'))).toBe(false);
    expect(contradicts(negation, 10, older('Alice likes tea', 20))).toBe(false);
    expect(contradicts(replacement, 10, older('We use npm'))).toBe(true);
    expect(contradicts(plain, 10, older('Alice likes tea'))).toBe(false);
  });

  it('gives a deterministic small unit vector as name embedding', () => {
    const vector = nameEmbedding('Alice');
    expect(vector).toHaveLength(8);
    expect(nameEmbedding('alice')).toEqual(vector);
    expect(Math.hypot(...vector)).toBeCloseTo(1, 3);
  });
});

describe('contradiction over HTTP', () => {
  let emulator: RunningEmulator | undefined;
  afterEach(async () => {
    await emulator?.close();
  });

  it('invalidates an earlier fact of the same subject in the same group only', async () => {
    emulator = await startEmulator({ processingDelayMs: 1 });
    await post(emulator.url, '/messages', {
      group_id: 'g',
      messages: [
        message({ content: 'We use npm. Alice likes tea.', timestamp: '2025-01-01T00:00:00Z' }),
        message({ content: 'We switched to pnpm.', timestamp: '2025-02-01T00:00:00Z' }),
      ],
    });
    await post(emulator.url, '/messages', {
      group_id: 'other',
      messages: [message({ content: 'We use npm.', timestamp: '2025-01-01T00:00:00Z' })],
    });
    await emulator.idle();
    const byText = Object.fromEntries(emulator.state.facts('g').map((fact) => [fact.fact, fact]));
    expect(byText['We use npm']).toMatchObject({ invalid_at: '2025-02-01T00:00:00+00:00' });
    expect(byText['We use npm']?.expired_at).not.toBeNull();
    expect(byText['Alice likes tea']).toMatchObject({ invalid_at: null, expired_at: null });
    expect(byText['We switched to pnpm']).toMatchObject({ invalid_at: null, expired_at: null });
    expect(emulator.state.facts('other')[0]).toMatchObject({ invalid_at: null, expired_at: null });
  });

  it('does not let an older message processed later invalidate a newer fact', async () => {
    emulator = await startEmulator({ processingDelayMs: 1 });
    await post(emulator.url, '/messages', {
      group_id: 'g',
      messages: [
        message({ content: 'Alice likes tea.', timestamp: '2025-03-01T00:00:00Z' }),
        message({ content: 'Alice no longer likes tea.', timestamp: '2025-01-01T00:00:00Z' }),
      ],
    });
    await emulator.idle();
    expect(emulator.state.facts('g').every((fact) => fact.invalid_at === null)).toBe(true);
  });
});
