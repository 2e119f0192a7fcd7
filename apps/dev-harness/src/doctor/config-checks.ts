// The configuration as every tool reads it (its problems as memory-node-storage words them: file,
// key and nearest valid key), and whether memory may send at all: enabled, consent for exactly
// this endpoint, nothing switched off, project files trusted or ignored.
import { FileMemorySwitches, closedBySwitches, ignoredLines } from '@graphiti-memory/memory-node-storage';
import { failed, passed, type DoctorCheck, type DoctorFacts } from './doctor-check.js';

export function configurationCheck(facts: DoctorFacts): DoctorCheck {
  const { configuration } = facts;
  if (!configuration.ok) {
    return failed(
      'config',
      `the configuration is invalid: ${configuration.problems.join('; ')}`,
      'fix the file and key named (the nearest valid key is given), then run graphiti-harness doctor again; graphiti-harness config show lists every value',
    );
  }
  const { files } = configuration.config;
  return passed('config', `valid (${[files.user, files.project].filter((file) => file !== undefined).join(', ')})`);
}

export async function consentCheck(facts: DoctorFacts): Promise<DoctorCheck> {
  const { endpoint, userConfig, userConfigFile } = facts;
  if (endpoint === undefined) return failed('consent', 'no endpoint, so no consent to send anywhere', 'graphiti-harness setup');
  if (!userConfig.ok) return failed('consent', `the user config ${userConfigFile} cannot be read, so its consent cannot either`, `fix ${userConfigFile} (see the config check)`);
  const { consent, enabled } = userConfig.values;
  if (consent === undefined) return failed('consent', `no consent recorded in ${userConfigFile}: hooks send nothing`, `graphiti-harness setup --endpoint ${endpoint}`);
  if (consent.endpoint !== endpoint) {
    return failed('consent', `consent is for ${consent.endpoint}, but the endpoint is ${endpoint}: hooks send nothing`, `graphiti-harness setup --endpoint ${endpoint} (consent is per endpoint)`);
  }
  if (enabled !== true) return failed('consent', `memory is switched off in ${userConfigFile} (enabled is not true)`, `graphiti-harness setup --endpoint ${endpoint}`);
  const switches = await FileMemorySwitches.inStateFolder(facts.stateDirectory).read();
  if (!switches.ok) return failed('consent', `memory switches unreadable: ${switches.problem}`, 'see the file named; hooks stay silent until it is fixed');
  const closed = closedBySwitches(switches.switches, facts.context.options.workspace, endpoint);
  if (closed !== undefined) {
    return failed('consent', `memory is switched off here: ${closed.detail} (${closed.reason})`, `graphiti-harness setup --endpoint ${endpoint} (connecting again clears a revoke)`);
  }
  const ignored = facts.configuration.ok ? ignoredLines(facts.configuration.config) : [];
  const trust = ignored.length === 0 ? '' : `; project file values ignored until trusted: ${ignored.join('; ')}`;
  return passed('consent', `consent for ${endpoint} since ${consent.grantedAt} (by ${consent.by})${trust}`);
}

