/**
 * `@graphiti-memory/dev-harness`: the `graphiti-harness` CLI. The binary is the product; this
 * entry exposes the runner for embedding and tests.
 */
export { runHarness, PROGRAM_NAME } from './cli/program.js';
export { ExitCode, HarnessError, UsageError } from './cli/harness-errors.js';
export type { Terminal, TerminalStream } from './terminal/terminal.js';
export { processTerminal } from './terminal/terminal.js';
