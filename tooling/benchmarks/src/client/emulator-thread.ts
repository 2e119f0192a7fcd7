// Runs the emulator on a thread of its own, so the load generator (autocannon or the client) does
// not share the server's event loop and the two sides are measured on equal terms.
import { parentPort, workerData } from 'node:worker_threads';
import { startEmulator } from '@graphiti-memory/graphiti-emulator';

const { processingDelayMs } = workerData as { processingDelayMs: number };
const emulator = await startEmulator({ processingDelayMs, quiet: true });
parentPort?.on('message', (message: unknown) => {
  if (message === 'close') {
    void emulator.close().then(() => parentPort?.close());
  }
});
parentPort?.postMessage({ url: emulator.url });
