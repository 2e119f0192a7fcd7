// Whether a command line asks for the MCP server itself. No imports: the binary checks it before
// loading anything else (see mcp-serve.ts).

/** Whether `argv` (after the program name) asks for the server itself, not install, uninstall or help. */
export function servesMcp(argv: readonly string[]): boolean {
  if (argv[0] !== 'mcp') return false;
  const rest = argv[1] === 'serve' ? argv.slice(2) : argv.slice(1);
  if (rest.some((argument) => argument === '--help' || argument === '-h')) return false;
  return rest.length === 0 || (rest[0]?.startsWith('--') === true && rest.every((argument, index) => index % 2 === 1 || ['--state-dir', '--workspace', '--installed-by'].includes(argument)));
}
