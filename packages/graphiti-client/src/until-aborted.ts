// Waiting on shared work (an MCP session being opened, the server probe of `auto`) without letting
// one caller's abort cancel it for the others.

/** `work`, or a rejection with `onAbort()` as soon as `signal` fires; the shared work goes on. */
export function untilAborted<T>(work: Promise<T>, signal: AbortSignal | undefined, onAbort: () => Error): Promise<T> {
  if (signal === undefined) return work;
  if (signal.aborted) return Promise.reject(onAbort());
  return new Promise<T>((resolve, reject) => {
    const aborted = (): void => reject(onAbort());
    signal.addEventListener('abort', aborted, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', aborted);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', aborted);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}
