// `graphiti-harness user-key show|set KEY`: the user scope's key, kept in the user config so the
// extension, the harness and agent hooks on this machine share one user memory — and, set to the
// same key, another machine too.
import { ensureUserKey, setUserKey, userConfigPath } from '@graphiti-memory/memory-node-storage';
import { Command } from 'commander';
import { addCommonOptions, type RawCommonOptions } from '../cli/common-options.js';
import { ExitCode, UsageError } from '../cli/harness-errors.js';
import type { CommandRegistrar } from './command-registrar.js';

export const registerUserKeyCommand: CommandRegistrar = (program, run) => {
  const userKey = new Command('user-key').description("show or set the user scope's key (shared by every tool on this machine)");
  userKey.addCommand(
    addCommonOptions(new Command('show').description('print the user key (created on first use)')).action((raw: RawCommonOptions) =>
      run(raw, async ({ output, terminal }) => {
        const key = await ensureUserKey(terminal.env);
        output.result({ ok: true, userKey: key, configFile: userConfigPath(terminal.env) });
        output.line(key);
        return ExitCode.ok;
      }, { configFiles: false }),
    ),
  );
  userKey.addCommand(
    addCommonOptions(
      new Command('set')
        .description('use KEY as the user key (copy it from `user-key show` on another machine to share the user scope)')
        .argument('<key>', 'the key'),
    ).action((key: string, raw: RawCommonOptions) =>
      run(raw, async ({ output, terminal }) => {
        const problem = await setUserKey(key, terminal.env);
        if (problem !== undefined) throw new UsageError(problem);
        output.result({ ok: true, configFile: userConfigPath(terminal.env) });
        output.line(`user key set in ${userConfigPath(terminal.env)}`);
        return ExitCode.ok;
      }, { configFiles: false }),
    ),
  );
  program.addCommand(userKey);
};
