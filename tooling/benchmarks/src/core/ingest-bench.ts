// (c) Ingest of a backlog of turns: how many /messages calls per message batching achieves.
import { GraphitiClient } from '@graphiti-memory/graphiti-client';
import { startEmulator } from '@graphiti-memory/graphiti-emulator';
import { InMemoryDeliveryLedger, InMemoryOutbox, IngestionService, openedIngestionStorage, SystemClock, type ChatTurn } from '@graphiti-memory/memory-core';
import { benchResult, type BenchResult } from '../bench-result.js';
import { FixedConfiguration, MessagesPerScopePlanner, OpenGate, silentLogger, silentTelemetry, SwitchableConnection, waitUntil } from './stand-ins.js';

export interface IngestBenchOptions {
  readonly turns?: number;
  readonly maxBatchSize?: number;
  /** Turns are spread over this many chat sessions (one group each). */
  readonly sessions?: number;
}

/** A short finished turn with distinct texts: batching is measured, not payload size. */
function backlogTurn(index: number, sessionId: string): ChatTurn {
  const at = new Date(Date.UTC(2025, 11, 1) + index * 1000).toISOString();
  return {
    id: `t${index}`,
    sessionId,
    user: { text: `question number ${index} about the build`, timestamp: at },
    assistant: { text: `answer number ${index}: run the build script first`, timestamp: at },
    participant: 'copilot',
  };
}

export async function measureIngestRequestsPerMessage(options: IngestBenchOptions = {}): Promise<BenchResult> {
  const turns = options.turns ?? 10_000;
  const maxBatchSize = options.maxBatchSize ?? 20;
  const sessions = options.sessions ?? 50;
  const emulator = await startEmulator({ processingDelayMs: 0 });
  const client = new GraphitiClient({ baseUrl: emulator.url, timeoutMs: 10_000 });
  const clock = new SystemClock();
  const configuration = new FixedConfiguration({ maxBatchSize, maxQueueSize: turns * 2 + 1 });
  const connection = new SwitchableConnection(undefined);
  const service = new IngestionService(
    new MessagesPerScopePlanner(['session']),
    openedIngestionStorage(new InMemoryOutbox(configuration, clock), new InMemoryDeliveryLedger()),
    connection,
    new OpenGate(),
    configuration,
    clock,
    silentLogger,
    silentTelemetry,
    { pollIntervalMs: 50, maxPollIntervalMs: 500, idleRecheckMs: 20 },
  );
  try {
    service.start();
    // The backlog: Graphiti unreachable while the turns arrive, then it comes back.
    for (let index = 0; index < turns; index++) service.enqueue(backlogTurn(index, `bench-${index % sessions}`));
    await service.settled();
    const messages = service.stats().counters.enqueued;
    const started = performance.now();
    connection.client = client;
    await waitUntil(() => service.stats().counters.sent >= messages, 'the backlog to be sent', 120_000);
    const sendMs = performance.now() - started;
    const calls = emulator.requests.filter((request) => request.route === 'messages').length;
    return benchResult({
      name: 'core.ingest.requests_per_message',
      value: calls,
      unit: 'count',
      baseline: messages,
      goal: 0.1,
      details: { maxBatchSize, messages, sessions, sendMs: Math.round(sendMs), ideal: Math.ceil(messages / maxBatchSize) },
    });
  } finally {
    await service.dispose();
    await client.close();
    await emulator.close();
  }
}
