// Harnesses still running. The setup file disposes them after every test, so a test keeps its
// harness in a local `const` with no bookkeeping of its own, and a failed test cannot leave an
// emulator, a timer or a temporary folder behind.
interface Disposable {
  dispose(): Promise<void>;
}

const running = new Set<Disposable>();

/** `harness`, disposed after the test unless the test disposes it first. */
export function tracked<T extends Disposable>(harness: T): T {
  const dispose = harness.dispose.bind(harness);
  running.add(harness);
  harness.dispose = async () => {
    running.delete(harness);
    await dispose();
  };
  return harness;
}

export async function disposeRunningHarnesses(): Promise<void> {
  const harnesses = [...running];
  running.clear();
  for (const harness of harnesses) await harness.dispose();
}
