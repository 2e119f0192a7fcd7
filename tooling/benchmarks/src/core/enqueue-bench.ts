// (a) What `enqueue` costs the chat path, per turn, against JSON.stringify of the same turn.
import { performance } from 'node:perf_hooks';
import {
  InMemoryDeliveryLedger,
  InMemoryOutbox,
  IngestionService,
  openedIngestionStorage,
  SystemClock,
  type ChatTurn,
} from '@graphiti-memory/memory-core';
import { benchResult, percentile, type BenchResult } from '../bench-result.js';
import { FixedConfiguration, MessagesPerScopePlanner, OpenGate, silentLogger, silentTelemetry, SwitchableConnection } from './stand-ins.js';

export interface EnqueueBenchOptions {
  /** Rounds of `turnsPerRound` enqueues; background planning runs between rounds. */
  readonly rounds?: number;
  readonly turnsPerRound?: number;
}

/** A turn the size of a typical chat exchange: a short question, a long answer with code. */
function benchTurn(index: number): ChatTurn {
  const at = new Date(Date.UTC(2026, 0, 1) + index * 1000).toISOString();
  return {
    id: `bench-${index}`,
    sessionId: 'bench-session',
    user: { text: `How do I make the build of package ${index} incremental, and why does turbo rebuild it?`, timestamp: at },
    assistant: {
      text: `${'Turbo hashes the inputs of each task; when any input changes the task runs again. '.repeat(12)}\n\`\`\`json\n{ "pipeline": { "build": { "dependsOn": ["^build"], "outputs": ["dist/**"] } } }\n\`\`\``,
      timestamp: at,
    },
    participant: 'copilot',
  };
}

export async function measureEnqueueCost(options: EnqueueBenchOptions = {}): Promise<BenchResult> {
  const rounds = options.rounds ?? 50;
  const turnsPerRound = options.turnsPerRound ?? 200;
  const clock = new SystemClock();
  // Planning (mapping, secret guard) never runs inside `enqueue` (a test proves it), so a light
  // planner stands in for the background step (see MessagesPerScopePlanner for why not the real one).
  const configuration = new FixedConfiguration({ maxQueueSize: 50_000 });
  const service = new IngestionService(
    new MessagesPerScopePlanner(['session', 'workspace']),
    openedIngestionStorage(new InMemoryOutbox(configuration, clock), new InMemoryDeliveryLedger()),
    new SwitchableConnection(undefined), // nothing is sent: only the chat-path cost is measured
    new OpenGate(),
    configuration,
    clock,
    silentLogger,
    silentTelemetry,
  );
  const enqueueTimes: number[] = [];
  const stringifyTimes: number[] = [];
  let sink = 0;
  for (let round = 0; round < rounds; round++) {
    for (let index = 0; index < turnsPerRound; index++) {
      const turn = benchTurn(round * turnsPerRound + index);
      // Alternate the order so neither side always runs on a warmer cache.
      if (index % 2 === 0) {
        let start = performance.now();
        sink += JSON.stringify(turn).length;
        stringifyTimes.push(performance.now() - start);
        start = performance.now();
        service.enqueue(turn);
        enqueueTimes.push(performance.now() - start);
      } else {
        let start = performance.now();
        service.enqueue(turn);
        enqueueTimes.push(performance.now() - start);
        start = performance.now();
        sink += JSON.stringify(turn).length;
        stringifyTimes.push(performance.now() - start);
      }
    }
    await service.settled();
  }
  await service.dispose();
  if (sink === 0) throw new Error('JSON.stringify produced nothing: the benchmark is broken');
  const warmup = Math.min(turnsPerRound, enqueueTimes.length / 10);
  const enqueue = enqueueTimes.slice(warmup).sort((left, right) => left - right);
  const stringify = stringifyTimes.slice(warmup).sort((left, right) => left - right);
  const toMicroseconds = (milliseconds: number): number => milliseconds * 1000;
  return benchResult({
    name: 'core.enqueue.p99_ratio',
    value: toMicroseconds(percentile(enqueue, 0.99)),
    unit: 'µs',
    baseline: toMicroseconds(percentile(stringify, 0.99)),
    goal: 10,
    details: {
      enqueueP50Us: toMicroseconds(percentile(enqueue, 0.5)),
      stringifyP50Us: toMicroseconds(percentile(stringify, 0.5)),
      p50Ratio: percentile(enqueue, 0.5) / percentile(stringify, 0.5),
      turns: enqueue.length,
    },
  });
}
