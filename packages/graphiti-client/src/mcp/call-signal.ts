// One call's own abort signal, following the caller's. The MCP SDK adds an abort listener to the
// signal of every request and never removes it (Protocol.request); given a long-lived signal (an
// ingestion service's lifetime, a CLI's Ctrl-C) those listeners pile up for good, and aborting it
// at the end would cancel every request ever made with it. The SDK gets this short-lived signal
// instead; the one listener on the caller's signal is removed when the call ends.

export interface CallSignal {
  /** Spread into the SDK's request options: `{ signal }` when the caller gave one, else nothing. */
  readonly options: { readonly signal?: AbortSignal };
  /** Detaches from the caller's signal; call when the request has ended, however it ended. */
  dispose(): void;
}

export function callSignal(signal: AbortSignal | undefined): CallSignal {
  if (signal === undefined) return { options: {}, dispose: () => undefined };
  const call = new AbortController();
  if (signal.aborted) {
    call.abort(signal.reason);
    return { options: { signal: call.signal }, dispose: () => undefined };
  }
  const follow = (): void => call.abort(signal.reason);
  signal.addEventListener('abort', follow, { once: true });
  return { options: { signal: call.signal }, dispose: () => signal.removeEventListener('abort', follow) };
}
