// `graphiti-harness mcp`: memory as an MCP server on stdio (see mcp/mcp-server.ts), and
// `mcp install|uninstall --target claude|codex|gemini|cursor|vscode`: our server in that client's
// MCP configuration (agent-hooks' mcp-clients.ts knows each client's file and format).
import { disconnectAgents, installMcpServer, MCP_CLIENT_TARGETS, MCP_CLIENTS, MCP_SERVER_ENTRY_NAME, uninstallMcpServer, type McpClientTarget, type McpServerCommand } from '@graphiti-memory/agent-hooks';
import { normaliseEndpoint } from '@graphiti-memory/memory-core';
import { Command, Option } from 'commander';
import type { CommandContext } from '../cli/command-runner.js';
import { addCommonOptions, type RawCommonOptions } from '../cli/common-options.js';
import { ExitCode, HarnessError } from '../cli/harness-errors.js';
import { harnessBinary, harnessPackage } from '../cli/harness-package.js';
import { copyMcpServer, pruneMcpServers } from '../mcp/mcp-server-copy.js';
import type { CommandRegistrar } from './command-registrar.js';
import { homeFolder, stateFolder } from './hooks-command.js';

interface InstallOptions extends RawCommonOptions {
  readonly target?: string;
}

const targetOption = (): Option => new Option('--target <client>', 'the MCP client').choices([...MCP_CLIENT_TARGETS]).makeOptionMandatory();

export const registerMcpCommand: CommandRegistrar = (program, run) => {
  const mcp = new Command('mcp').description(
    'serve memory over MCP on stdio (memory_recall, memory_remember, memory_forget, memory_pending); install it into an MCP client',
  );
  // `graphiti-harness mcp` serves: the default subcommand, so its options never meet install's.
  mcp.addCommand(
    new Command('serve')
      .description('serve memory over MCP on stdio (what an MCP client runs; the default)')
      .option('--state-dir <dir>', 'the state folder (default: the configured one)')
      .option('--workspace <path>', "the workspace (default: the client's root, else the folder the client starts the server in)")
      .addOption(new Option('--installed-by <tool>', 'marks an entry `mcp install` wrote').hideHelp())
      .addHelpText(
        'after',
        [
          '',
          'stdout carries the protocol; nothing else is printed there. Each tool checks, on every call, that memory is',
          'set up here (an endpoint and your consent for it, recorded by graphiti-harness setup); until then every tool',
          'answers that memory is not set up and how to set it up. Nothing is sent without that consent.',
          '',
          'Examples:',
          '  graphiti-harness mcp install --target claude',
          '  graphiti-harness mcp install --target vscode --json',
          '  graphiti-harness mcp uninstall --target codex',
          '  claude --mcp-config \'{"mcpServers":{"graphiti-memory":{"command":"graphiti-harness","args":["mcp"]}}}\'',
        ].join('\n'),
      )
      .action((raw: { stateDir?: string; workspace?: string }) =>
        run(
          { ...(raw.stateDir === undefined ? {} : { stateDir: raw.stateDir }) },
          async (context) =>
            // Loaded only here: the MCP SDK is no weight on every other command's start.
            (await (await import('../mcp/mcp-server.js')).runMcpServer({
              terminal: context.terminal,
              flags: { ...(raw.stateDir === undefined ? {} : { stateDir: raw.stateDir }), ...(raw.workspace === undefined ? {} : { workspace: raw.workspace }) },
              version: harnessPackage().version,
            })) as ExitCode,
          // A configuration problem must not keep the server from starting: each tool names it.
          { configFiles: false },
        ),
      ),
    { isDefault: true },
  );
  mcp.addCommand(
    addCommonOptions(
      new Command('install')
        .description("write our server into the MCP client's configuration (merged, atomic, backed up; running it twice adds nothing)")
        .addOption(targetOption())
        .addHelpText('after', ['', ...MCP_CLIENT_TARGETS.map((target) => `  ${target.padEnd(7)} ${MCP_CLIENTS[target].label}`)].join('\n')),
    ).action((raw: InstallOptions) => run(raw, (context) => install(context, raw.target as McpClientTarget), { salvageConfig: true })),
  );
  mcp.addCommand(
    addCommonOptions(new Command('uninstall').description("remove exactly our server from the MCP client's configuration").addOption(targetOption())).action((raw: InstallOptions) =>
      run(raw, (context) => uninstall(context, raw.target as McpClientTarget), { salvageConfig: true }),
    ),
  );
  program.addCommand(mcp);
};

async function install(context: CommandContext, target: McpClientTarget): Promise<ExitCode> {
  const { output, options, terminal, configuration } = context;
  const stateDirectory = await stateFolder(context);
  // The one-file server, copied out of this installation: moving or deleting it breaks nothing.
  const copy = await copyMcpServer(stateDirectory);
  const warnings: string[] = [];
  const stateArgs = options.stateDirGiven ? ['--state-dir', options.stateDir] : [];
  let command: McpServerCommand;
  if (copy !== undefined) command = { command: process.execPath, args: [copy.entry, ...stateArgs] };
  else {
    command = { command: process.execPath, args: [harnessBinary(), 'mcp', ...stateArgs] };
    warnings.push(`this installation has no built MCP server bundle (dist/mcp-server.mjs), so ${MCP_CLIENTS[target].label} runs ${harnessBinary()} directly: moving or deleting it breaks the server. Build the harness (or install the packed CLI) and run mcp install again.`);
  }
  let change;
  try {
    change = await installMcpServer({ target, home: homeFolder(context), env: terminal.env, command });
  } catch (error) {
    throw new HarnessError(error instanceof Error ? error.message : String(error), { hint: 'Nothing was changed.' });
  }
  await pruneMcpServers(stateDirectory, homeFolder(context), terminal.env);
  const endpoint = configuration.endpoint === undefined ? undefined : normaliseEndpoint(configuration.endpoint);
  const setUp = configuration.enabled && endpoint !== undefined && configuration.consent !== undefined && normaliseEndpoint(configuration.consent.endpoint) === endpoint;
  if (!setUp) warnings.push('memory is not set up here yet (no endpoint, or no consent for it): until `graphiti-harness setup` has run, every tool answers that memory is not set up.');
  output.result({ ok: true, target, file: change.file, changed: change.changed, backup: change.backup ?? null, name: MCP_SERVER_ENTRY_NAME, command, setUp, warnings });
  output.line(`${MCP_CLIENTS[target].label}: ${change.changed ? 'installed in' : 'already installed in'} ${change.file}${change.backup === undefined ? '' : ` (previous file kept as ${change.backup})`}`);
  output.line(`the server runs ${[command.command, ...command.args].join(' ')}`);
  output.line(`restart ${MCP_CLIENTS[target].label} (or reload its MCP servers) to see the tools memory_recall, memory_remember, memory_forget and memory_pending.`);
  for (const warning of warnings) output.warn(warning);
  return ExitCode.ok;
}

async function uninstall(context: CommandContext, target: McpClientTarget): Promise<ExitCode> {
  const { output, terminal } = context;
  let change;
  try {
    change = await uninstallMcpServer({ target, home: homeFolder(context), env: terminal.env });
  } catch (error) {
    throw new HarnessError(error instanceof Error ? error.message : String(error), { hint: 'Nothing was changed.' });
  }
  // The last connection gone (no hooks, no other MCP client): the consent goes with it, as with `hooks uninstall`.
  const disconnected = change.changed
    ? await disconnectAgents({ env: terminal.env, home: homeFolder(context), targets: [], by: 'graphiti-harness', stateDirectory: await stateFolder(context) })
    : undefined;
  const consentRevoked = disconnected?.consentRevoked ?? false;
  output.result({ ok: true, target, file: change.file, changed: change.changed, backup: change.backup ?? null, consentRevoked });
  output.line(`${MCP_CLIENTS[target].label}: ${change.changed ? 'removed from' : 'not installed in'} ${change.file}${change.backup === undefined ? '' : ` (previous file kept as ${change.backup})`}`);
  if (disconnected?.consentRevoked === true) output.line(`consent revoked in ${disconnected.configFile}: no hook and no MCP client uses memory any more`);
  await pruneMcpServers(await stateFolder(context), homeFolder(context), terminal.env);
  return ExitCode.ok;
}
