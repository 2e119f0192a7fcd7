// The `graphiti-harness` executable (bin/graphiti-harness.js imports this file).
import { servesMcp } from './mcp/mcp-arguments.js';
import { processTerminal } from './terminal/terminal.js';

const argv = process.argv.slice(2);
let exitCode: number;
if (servesMcp(argv)) {
  // The MCP server alone: a client waits only seconds for it to start (mcp-serve.ts).
  const [{ serveMcp }, { harnessPackage }] = await Promise.all([import('./mcp/mcp-serve.js'), import('./cli/harness-package.js')]);
  exitCode = await serveMcp(argv.slice(1), processTerminal(), harnessPackage().version);
} else {
  const { runHarness } = await import('./cli/program.js');
  exitCode = await runHarness(argv, { terminal: processTerminal() });
}
process.exitCode = exitCode;
// Every command closes what it opened; should a socket or timer still linger, it must not keep
// the process alive after the work is done (the timer is unref'd, so it never delays a clean exit).
setTimeout(() => process.exit(exitCode), 1_000).unref();
