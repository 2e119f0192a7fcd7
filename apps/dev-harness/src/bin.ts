// The `graphiti-harness` executable (bin/graphiti-harness.js imports this file).
import { runHarness } from './cli/program.js';
import { processTerminal } from './terminal/terminal.js';

const exitCode = await runHarness(process.argv.slice(2), { terminal: processTerminal() });
process.exitCode = exitCode;
// Every command closes what it opened; should a socket or timer still linger, it must not keep
// the process alive after the work is done (the timer is unref'd, so it never delays a clean exit).
setTimeout(() => process.exit(exitCode), 1_000).unref();
