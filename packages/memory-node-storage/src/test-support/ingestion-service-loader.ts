// memory-core's IngestionService, looked up at run time: the chaos test is written against the
// API of the team brief and runs once memory-core's entry exports it (skipped, saying so, before).
export interface IngestionServiceLike {
  start(): void;
  enqueueEntries(entries: readonly unknown[]): void;
  settled(): Promise<void>;
  waitForConfirmation(options: { readonly timeoutMs: number }): Promise<{ readonly confirmed: number; readonly pending: number }>;
  dispose(): Promise<void>;
}

export type IngestionServiceConstructor = new (...parameters: unknown[]) => IngestionServiceLike;

export async function loadIngestionService(): Promise<IngestionServiceConstructor | undefined> {
  const core = (await import('@graphiti-memory/memory-core')) as Record<string, unknown>;
  return typeof core.IngestionService === 'function' ? (core.IngestionService as IngestionServiceConstructor) : undefined;
}
