// An emulator on a thread of its own, seeded for /search, so the load side (autocannon or the
// client) does not share the server's event loop: both sides are then measured on equal terms.
import { parentPort } from 'node:worker_threads';
import { GraphitiClient } from '@graphiti-memory/graphiti-client';
import { BENCHMARK_BODIES } from '@graphiti-memory/benchmarks';
import { startEmulator } from '@graphiti-memory/graphiti-emulator';

const emulator = await startEmulator({ processingDelayMs: 1, quiet: true });
const client = new GraphitiClient({ baseUrl: emulator.url, maxRetries: 0 });
const sentences = [
  'The build uses pnpm for every package.',
  'The team prefers turbo for task caching.',
  'The package manager of the build is pnpm.',
  'Tests run with vitest against the emulator.',
];
await client.addMessages({
  group_id: BENCHMARK_BODIES.search.group_ids[0],
  messages: sentences.map((content, index) => ({ content, role_type: 'user' as const, role: 'bench', name: `bench.seed.${index}` })),
});
await emulator.idle();
await client.close();
parentPort?.on('message', (message: unknown) => {
  if (message === 'close') void emulator.close().then(() => parentPort?.close());
});
parentPort?.postMessage({ url: emulator.url });
