// What a hook event handler reports: an outcome for the run log, and the text to print, if any.

export interface HandlerResult {
  readonly outcome: string;
  /** `additionalContext` to print. */
  readonly context?: string;
  /** A line for the user (the output's top-level `systemMessage`), never the model's context. */
  readonly systemMessage?: string;
  readonly detail?: string;
  /** Start the background drainer after printing (deliveries, or a stale tier to refresh). */
  readonly drain?: boolean;
}

