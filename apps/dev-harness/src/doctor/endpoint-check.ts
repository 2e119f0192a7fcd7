// The endpoint in force, probed exactly as `health` and `setup` probe it.
import { probeSummary, probeUrl } from '../endpoint/probe-endpoint.js';
import { failed, passed, type DoctorCheck, type DoctorFacts } from './doctor-check.js';

export async function endpointCheck(facts: DoctorFacts): Promise<DoctorCheck> {
  const { endpoint } = facts;
  if (endpoint === undefined) return failed('endpoint', 'no endpoint configured: memory has nowhere to go', 'graphiti-harness setup (or graphiti-harness setup --endpoint URL)');
  const probe = await probeUrl({ ...facts.context, options: { ...facts.context.options, endpoint } }, endpoint);
  if (probe.ok) return passed('endpoint', `${endpoint}: ${probeSummary(probe)}`);
  return failed(
    'endpoint',
    `${endpoint}: ${probeSummary(probe)}`,
    probe.reachable ? `check the Graphiti server's logs and its database; graphiti-harness health --endpoint ${endpoint}` : `start Graphiti (deploy/graphiti), or fix the URL with graphiti-harness setup --endpoint URL`,
  );
}
