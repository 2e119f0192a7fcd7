import type { Command } from 'commander';
import { registerAuditCommand } from './audit-command.js';
import { registerBenchCommand } from './bench-command.js';
import type { RunCommand } from './command-registrar.js';
import { registerConfigCommand } from './config-command.js';
import { registerDemoCommand } from './demo-command.js';
import { registerDoctorCommand } from './doctor-command.js';
import { registerEditCommand } from './edit-command.js';
import { registerEpisodesCommand } from './episodes-command.js';
import { registerEvalCommand } from './eval-command.js';
import { registerForgetCommand } from './forget-command.js';
import { registerHealthCommand } from './health-command.js';
import { registerHookCommand } from './hook-command.js';
import { registerHooksCommand } from './hooks-command.js';
import { registerIngestCommand } from './ingest-command.js';
import { registerOutboxCommand } from './outbox-command.js';
import { registerPendingCommand } from './pending-command.js';
import { registerPromoteCommand } from './promote-command.js';
import { registerRecallCommand } from './recall-command.js';
import { registerSetupCommand } from './setup-command.js';
import { registerSmokeCommand } from './smoke-command.js';
import { registerTrackCommand } from './track-command.js';
import { registerUserKeyCommand } from './user-key-command.js';
import { registerTeamCommand } from './team-command.js';
import { registerMigrateCommand } from './migrate-command.js';

/** Adds every command, in the order `--help` lists them. */
export function registerCommands(program: Command, run: RunCommand): void {
  for (const register of [
    registerSetupCommand,
    registerDoctorCommand,
    registerDemoCommand,
    registerHealthCommand,
    registerSmokeCommand,
    registerIngestCommand,
    registerRecallCommand,
    registerPromoteCommand,
    registerEditCommand,
    registerEpisodesCommand,
    registerForgetCommand,
    registerPendingCommand,
    registerAuditCommand,
    registerTrackCommand,
    registerOutboxCommand,
    registerHookCommand,
    registerHooksCommand,
    registerUserKeyCommand,
    registerConfigCommand,
    registerBenchCommand,
    registerTeamCommand,
    registerMigrateCommand,
    registerEvalCommand,
  ]) {
    register(program, run);
  }
}
