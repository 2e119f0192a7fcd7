// `graphiti-harness team enable|disable|show`: the opt-in team scope. Enabling it is a consent of
// its own, separate from the consent to send memory at all, because it changes who can read what
// the user promotes there: anyone who uses this Graphiti server with this repository. It is kept in
// the user's config.json as `team.consent` (with `team.displayName`), which every tool reads; a
// repository's project file can never turn it on.
import { sanitiseReadableLine, TEAM_AUDIENCE } from '@graphiti-memory/memory-core';
import { readConfigFile, updateConfigFile, userConfigPath } from '@graphiti-memory/memory-node-storage';
import { Command } from 'commander';
import type { CommandContext } from '../cli/command-runner.js';
import { addCommonOptions, type RawCommonOptions } from '../cli/common-options.js';
import { ExitCode, UsageError } from '../cli/harness-errors.js';
import { openHarnessMemory } from '../composition/harness-container.js';
import type { CommandRegistrar } from './command-registrar.js';

interface EnableOptions extends RawCommonOptions {
  readonly yesShareWithTeam?: boolean;
  readonly displayName?: string;
}

const DISPLAY_NAME_MAX_CHARS = 64;

export const registerTeamCommand: CommandRegistrar = (program, run) => {
  const team = new Command('team').description(`the opt-in team scope: promoted memories shared with ${TEAM_AUDIENCE}`);
  team.addCommand(
    addCommonOptions(
      new Command('enable')
        .description(`share what you promote with --scope team (or "decision (team): …") with ${TEAM_AUDIENCE}`)
        .option('--yes-share-with-team', `agree that ${TEAM_AUDIENCE} can read your team memories (needed when not on a terminal)`)
        .option('--display-name <name>', 'the name stored with what you share, shown as [team · NAME]; none by default')
        .addHelpText(
          'after',
          [
            '',
            'Only promoted memories go to the team scope, never captured chat. Recall then includes the',
            "team's memories wherever it searches the workspace. `forget --scope team` removes what you shared.",
            '',
            'Example:',
            '  graphiti-harness team enable --yes-share-with-team --display-name Alice',
          ].join('\n'),
        ),
    ).action((raw: EnableOptions) => run(raw, (context) => enable(context, raw), { configFiles: false })),
  );
  team.addCommand(
    addCommonOptions(new Command('disable').description('stop writing to and recalling from the team scope (what you shared stays until you forget it)')).action(
      (raw: RawCommonOptions) =>
        run(
          raw,
          async ({ output, terminal }) => {
            const file = userConfigPath(terminal.env);
            await updateConfigFile(file, { team: { ...(await currentTeam(file)), consent: false } });
            output.result({ ok: true, consent: false, configFile: file });
            output.line(`team scope disabled in ${file}`);
            return ExitCode.ok;
          },
          { configFiles: false },
        ),
    ),
  );
  team.addCommand(
    addCommonOptions(new Command('show').description("whether the team scope is on, your display name and this repository's team group")).action((raw: RawCommonOptions) =>
      run(raw, (context) => show(context)),
    ),
  );
  program.addCommand(team);
};

async function currentTeam(file: string): Promise<{ consent?: boolean | undefined; displayName?: string | undefined }> {
  const read = await readConfigFile(file);
  if (!read.ok) throw new UsageError(`${file} cannot be read: ${read.problems.join('; ')}`);
  return { ...read.values.team };
}

async function enable(context: CommandContext, raw: EnableOptions): Promise<ExitCode> {
  const { output, terminal, options } = context;
  const displayName = raw.displayName?.replace(/\s+/g, ' ').trim();
  if (displayName !== undefined && (displayName === '' || displayName.length > DISPLAY_NAME_MAX_CHARS)) {
    throw new UsageError(`--display-name ${JSON.stringify(raw.displayName)} must be 1 to ${DISPLAY_NAME_MAX_CHARS} characters of one line.`);
  }
  if (raw.yesShareWithTeam !== true) {
    const interactive = terminal.stdin.isTTY === true && terminal.stderr.isTTY === true && !options.json;
    if (!interactive) {
      throw new UsageError(`enabling the team scope shares what you promote there with ${TEAM_AUDIENCE}: pass --yes-share-with-team to agree.`);
    }
    const agreed = await output.confirm(
      `What you promote to the team scope will be readable by ${TEAM_AUDIENCE}${displayName === undefined ? '' : `, with your name "${displayName}"`}. Captured chat is never shared. Enable it?`,
    );
    if (!agreed) {
      output.line('Team scope not enabled.');
      return ExitCode.ok;
    }
  }
  const file = userConfigPath(terminal.env);
  await updateConfigFile(file, { team: { ...(await currentTeam(file)), consent: true, ...(displayName === undefined ? {} : { displayName }) } });
  output.result({ ok: true, consent: true, audience: TEAM_AUDIENCE, ...(displayName === undefined ? {} : { displayName }), configFile: file });
  output.line(`${output.colors.green('✔')} team scope enabled in ${file}: what you promote with --scope team is read by ${TEAM_AUDIENCE}.`);
  return ExitCode.ok;
}

async function show(context: CommandContext): Promise<ExitCode> {
  const { output, configuration } = context;
  const memory = await openHarnessMemory(context, { needs: {}, preflight: false });
  const groupId = await memory.groups.resolve('team');
  await memory.close();
  const { consent, displayName } = configuration.settings.team;
  output.result({ ok: true, consent, displayName, audience: TEAM_AUDIENCE, groupId: groupId ?? null });
  output.line(`team scope: ${consent ? 'enabled' : 'not enabled'} (readable by ${TEAM_AUDIENCE})`);
  output.line(`display name: ${displayName === '' ? '(none: shown as [team])' : sanitiseReadableLine(displayName)}`);
  output.line(groupId === undefined ? 'this workspace has no git remote, so it has no team group' : `team group of this repository: ${groupId}`);
  return ExitCode.ok;
}
