// What waits in the state folder, per endpoint: queued (not sent yet), unconfirmed (accepted, not
// yet seen stored) and dead-lettered (will not be sent again on its own). Read from the outbox on
// disk; nothing is sent.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { endpointStateDirectory, FileOutbox } from '@graphiti-memory/memory-node-storage';
import { failed, passed, type DoctorCheck, type DoctorFacts } from './doctor-check.js';

export interface EndpointOutbox {
  /** The endpoint's URL when it is the one in force; otherwise `undefined` (folders are named by a hash). */
  readonly endpoint: string | undefined;
  readonly folder: string;
  readonly queued: number;
  readonly unconfirmed: number;
  readonly deadLetters: number;
}

/** Records read per outbox: its bound (the outbox keeps at most this many). */
const MAX_RECORDS = 10_000;

export async function readEndpointOutboxes(stateDirectory: string, endpointInForce: string | undefined): Promise<EndpointOutbox[]> {
  const endpointsFolder = path.join(path.resolve(stateDirectory), 'endpoints');
  const names = await fs.readdir(endpointsFolder).catch(() => [] as string[]);
  const inForceFolder = endpointInForce === undefined ? undefined : endpointStateDirectory(stateDirectory, endpointInForce);
  const found: EndpointOutbox[] = [];
  for (const name of names.sort()) {
    const folder = path.join(endpointsFolder, name);
    const directory = path.join(folder, 'outbox');
    if (!(await fs.stat(directory).then((stat) => stat.isDirectory(), () => false))) continue;
    const outbox = await FileOutbox.open({ directory });
    try {
      const records = await outbox.pending(MAX_RECORDS);
      found.push({
        endpoint: folder === inForceFolder ? endpointInForce : undefined,
        folder,
        queued: records.filter((record) => record.state === 'pending').length,
        unconfirmed: records.filter((record) => record.state === 'sent').length,
        deadLetters: outbox.deadLetters().length,
      });
    } finally {
      await outbox.close();
    }
  }
  return found;
}

export async function outboxCheck(facts: DoctorFacts): Promise<DoctorCheck> {
  let outboxes: EndpointOutbox[];
  try {
    outboxes = await readEndpointOutboxes(facts.stateDirectory, facts.endpoint);
  } catch (error) {
    return failed('outbox', `the outbox in ${facts.stateDirectory} cannot be read: ${error instanceof Error ? error.message : String(error)}`, 'see the state-folder check; graphiti-harness outbox list names damaged files');
  }
  const waiting = outboxes.filter((outbox) => outbox.queued + outbox.unconfirmed + outbox.deadLetters > 0);
  if (waiting.length === 0) return passed('outbox', 'nothing queued, unconfirmed or dead-lettered');
  const describe = (outbox: EndpointOutbox) =>
    `${outbox.endpoint ?? `an endpoint not in use now (${path.basename(outbox.folder)})`}: ${outbox.queued} queued, ${outbox.unconfirmed} unconfirmed, ${outbox.deadLetters} dead-lettered`;
  const summary = waiting.map(describe).join('; ');
  const dead = waiting.find((outbox) => outbox.deadLetters > 0);
  if (dead !== undefined) {
    const endpoint = dead.endpoint ?? 'URL';
    return failed('outbox', summary, `graphiti-harness outbox list --endpoint ${endpoint} shows the dead letters; outbox retry sends them again, outbox drop deletes them`);
  }
  const elsewhere = waiting.find((outbox) => outbox.endpoint === undefined);
  if (elsewhere !== undefined) {
    return failed('outbox', summary, `records wait for an endpoint that is not the one in force: graphiti-harness outbox list --endpoint URL (that endpoint) shows them; if it was a wrong URL, graphiti-harness outbox move --from URL moves them`);
  }
  return passed('outbox', summary);
}
