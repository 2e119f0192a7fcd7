// Starts a server on a worker thread of its own, so the load side (autocannon or the client) does
// not share the server's event loop and both sides are measured on equal terms. Exported through
// `./bench` so the dev harness starts its seeded emulator thread the same way.
import { Worker } from 'node:worker_threads';
import type { BenchmarkServer } from './throughput.js';

/**
 * Runs `moduleUrl` on a worker thread with `workerData`. The module posts `{ url }` once it
 * listens, and closes its server and its port on the message `'close'`.
 */
export async function startServerThread(moduleUrl: URL, workerData?: unknown): Promise<BenchmarkServer> {
  const worker = new Worker(moduleUrl, { workerData });
  const url = await new Promise<string>((resolve, reject) => {
    worker.once('message', (message: { url: string }) => resolve(message.url));
    worker.once('error', reject);
  });
  return {
    url,
    eventLoopUtilization: (previous) => worker.performance.eventLoopUtilization(previous),
    close: async () => {
      const exited = new Promise((resolve) => worker.once('exit', resolve));
      worker.postMessage('close');
      await exited;
    },
  };
}
