// `graphiti-harness ui [--port N] [--open]`: the memory page for the configured endpoint and this
// workspace, on 127.0.0.1 behind a per-run token. The first line of output is the page's address
// (with the token); Ctrl-C stops it. It opens memory as every command does (the same state folder,
// configuration and consent), so what it changes every other tool sees at once.
import { spawn } from 'node:child_process';
import { Command } from 'commander';
import type { CommandContext } from '../cli/command-runner.js';
import { addCommonOptions, type RawCommonOptions } from '../cli/common-options.js';
import { ExitCode, HarnessError } from '../cli/harness-errors.js';
import { parseInteger } from '../cli/option-parsers.js';
import { openHarnessMemory } from '../composition/harness-container.js';
import { MemoryPageApi } from '../page/page-api.js';
import { pageAssetsFolder, startPageServer } from '../page/page-server.js';
import type { CommandRegistrar } from './command-registrar.js';

interface UiOptions extends RawCommonOptions {
  readonly port?: string;
  readonly open?: boolean;
}

export const registerUiCommand: CommandRegistrar = (program, run) => {
  program.addCommand(
    addCommonOptions(
      new Command('ui')
        .description('the memory page in your browser: see, search, edit and forget what memory holds (127.0.0.1 only; Ctrl-C stops)')
        .option('--port <port>', 'the port on 127.0.0.1 (default: a free one)')
        .option('--open', 'open the page in your browser')
        .addHelpText(
          'after',
          [
            '',
            'The first line printed is the page\'s address, with a secret token for this run: only a browser',
            'given that address can use the page (the token becomes a cookie), and only from this machine.',
            'With --json that line is { "url", "port" }.',
            '',
            'Examples:',
            '  graphiti-harness ui --open',
            '  graphiti-harness ui --port 7777 --endpoint http://localhost:8000',
          ].join('\n'),
        ),
    ).action((raw: UiOptions) => run(raw, (context) => ui(context, raw))),
  );
};

async function ui(context: CommandContext, raw: UiOptions): Promise<ExitCode> {
  const { options, terminal, output } = context;
  const port = raw.port === undefined ? 0 : parseInteger(raw.port, '--port', { min: 1, max: 65535 });
  const assets = await pageAssetsFolder();
  // The page answers from the local tier when Graphiti is down, so an unreachable endpoint does not stop it.
  const memory = await openHarnessMemory(context, { preflight: 'soft' });
  memory.ingestion.start();
  const api = new MemoryPageApi(memory, { workspaceFolder: options.workspace, timeoutMs: options.timeoutMs, stateDirectory: options.stateDir, env: terminal.env as NodeJS.ProcessEnv });
  const server = await startPageServer({ api, port, assets }).catch((error: unknown) => {
    const code = (error as NodeJS.ErrnoException).code;
    throw new HarnessError(`the memory page cannot listen on 127.0.0.1:${port}${code === undefined ? '' : ` (${code})`}.`, {
      hint: code === 'EADDRINUSE' ? 'Another program uses that port: pass another --port, or leave it out for a free one.' : 'Pass another --port, or leave it out for a free one.',
    });
  });
  context.defer(() => server.close());
  terminal.stdout.write(options.json ? `${JSON.stringify({ url: server.url, port: server.port })}\n` : `${server.url}\n`);
  output.info(`The memory page of ${options.workspace} at ${memory.endpoint.label}; only this machine can open it, and only with the address above. Ctrl-C stops it.`);
  if (memory.preflightFailure !== undefined) output.warn(`Graphiti did not answer (${memory.preflightFailure.message}); the page shows the copy kept on this machine until it does.`);
  if (raw.open === true) openBrowser(server.url, terminal.env);
  await new Promise<void>((resolve) => {
    const interruption = terminal.onInterrupt(() => {
      interruption.dispose();
      resolve();
    });
  });
  output.info('The memory page stopped.');
  return ExitCode.ok;
}

/** The platform's opener, detached; a failure only means the user opens the address themselves. */
function openBrowser(url: string, env: Readonly<Record<string, string | undefined>>): void {
  const [command, args] = process.platform === 'darwin' ? ['open', [url]] : process.platform === 'win32' ? ['cmd', ['/c', 'start', '""', url]] : ['xdg-open', [url]];
  try {
    const child = spawn(command, args, { detached: true, stdio: 'ignore', env: env as NodeJS.ProcessEnv });
    child.on('error', () => undefined);
    child.unref();
  } catch {
    // Opening is a convenience: the address is printed.
  }
}
