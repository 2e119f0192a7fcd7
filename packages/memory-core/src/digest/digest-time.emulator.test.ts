// Issue 29 item 6: a digest keeps time. A transcript spanning six weeks, imported at once, becomes one
// digest per stretch of talk (never across an idle gap between its own turns' times), each dated by
// its turns: the emulator's episodes carry those times as `valid_at`, not the time of the import.
import { createGraphitiClient, type GraphitiApi } from '@graphiti-memory/graphiti-client';
import { startEmulator, type RunningEmulator } from '@graphiti-memory/graphiti-emulator';
import { Container } from 'inversify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SystemClock } from '../clock/system-clock.js';
import { IngestionOptions } from '../ingestion/index.js';
import { Ingestion } from '../ingestion/ingestion.js';
import { createInMemoryStorageModule, createMemoryModule } from '../memory-module.js';
import type { ChatTurn } from '../ports.js';
import { bindFakeHostPorts } from '../../test-support/fake-host-ports.js';

let emulator: RunningEmulator;
let client: GraphitiApi;

const DAY = 24 * 60 * 60_000;
const START = Date.UTC(2026, 8, 1, 9, 0, 0);

/** Three stretches of talk, weeks apart: turns minutes apart within each. */
const stretches = [
  { day: 0, texts: ['We run Postgres 14 in staging.', 'The staging database lives in Frankfurt.'] },
  { day: 20, texts: ['We upgraded staging to Postgres 16.'] },
  { day: 42, texts: ['Backups of staging run nightly.', 'Restores are tested every Friday.', 'The restore runbook is in docs/restore.md.'] },
];

function transcript(): ChatTurn[] {
  const turns: ChatTurn[] = [];
  for (const stretch of stretches) {
    stretch.texts.forEach((text, index) => {
      const at = START + stretch.day * DAY + index * 5 * 60_000;
      turns.push({
        id: `import-${turns.length}`,
        sessionId: 'imported-session',
        user: { text, timestamp: new Date(at).toISOString() },
        assistant: { text: 'Noted.', timestamp: new Date(at + 2_000).toISOString() },
      });
    });
  }
  return turns;
}

describe('digests keep time', () => {
  beforeEach(async () => {
    emulator = await startEmulator({ processingDelayMs: 2 });
    client = createGraphitiClient({ baseUrl: emulator.url });
  });
  afterEach(async () => {
    await client.close();
    await emulator.close();
  });

  it('a transcript spanning six weeks, imported, becomes one digest per stretch, each dated by its last turn', async () => {
    const container = new Container();
    bindFakeHostPorts(container, {
      settings: { enabled: true, endpoint: emulator.url, scopes: 'workspace', capture: { granularity: 'session', idleMinutes: 30, digestTurns: 20 } },
      consentFor: emulator.url,
      connection: { current: () => client },
      clock: new SystemClock(),
    });
    container.bind(IngestionOptions).toConstantValue({ pollIntervalMs: 20, maxPollIntervalMs: 100 });
    await container.load(createMemoryModule(), createInMemoryStorageModule());
    const ingestion = container.get<Ingestion>(Ingestion);
    ingestion.start();
    for (const turn of transcript()) ingestion.enqueue(turn);
    ingestion.endSessions(['imported-session']);
    const confirmation = await ingestion.waitForConfirmation({ timeoutMs: 20_000 });
    expect(confirmation.pending).toBe(0);
    const digests = emulator.state
      .episodes()
      .filter((episode) => episode.name.startsWith('graphiti-memory.digest.'))
      .sort((left, right) => Date.parse(left.valid_at) - Date.parse(right.valid_at));
    expect(digests.map((episode) => episode.content.match(/user: /g)?.length)).toEqual([2, 1, 3]);
    // Each digest's reference time is its last turn's (the assistant's answer), not the import's.
    const lastTurnOf = (stretch: (typeof stretches)[number]) => new Date(START + stretch.day * DAY + (stretch.texts.length - 1) * 5 * 60_000 + 2_000).toISOString();
    expect(digests.map((episode) => new Date(episode.valid_at).toISOString())).toEqual(stretches.map(lastTurnOf));
    expect(digests[1]?.content).toContain('Postgres 16');
    expect(digests[0]?.content).not.toContain('Postgres 16');
  });
});
