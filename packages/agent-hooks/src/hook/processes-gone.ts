// Whether processes (hook servers, a drainer) have left: what stopping them waits for, and what
// the e2e tests check after a stop, a kill or an uninstall.

/** Whether a process with this id is running (signal 0 tests for it without touching it). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Waits until none of `pids` runs, at most about `timeoutMs`; true when all are gone. */
export async function waitUntilGone(pids: readonly number[], timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (pids.some(processAlive)) {
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return true;
}
