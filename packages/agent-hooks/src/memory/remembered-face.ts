// `server: auto` without a probe per run: the face the endpoint answered with before is read from
// the state folder (FileServerFaceRecord) and handed to the client, which speaks it at once; what a
// probe finds is recorded, and a face a call proved wrong is forgotten so the next run probes. An
// explicit `server: rest | mcp` is never touched. The record is a hint: a failure to read or write it
// costs a probe, never an answer.
import type { AutoFaceOptions, GraphitiServerChoice, ServerFace } from '@graphiti-memory/graphiti-client';
import { FileServerFaceRecord } from '@graphiti-memory/memory-node-storage';

export interface RememberedFace {
  /** For `createGraphitiClient` (empty unless the choice is `auto`). */
  readonly clientOptions: AutoFaceOptions;
  /** Whether a call proved the remembered face wrong in this run (the client probes on its next call). */
  readonly droppedKnown: () => boolean;
  /** Waits for the record's writes this run started (call after the client's last call). */
  settled(): Promise<void>;
}

/** For an explicit face (or no state folder): nothing read, nothing written. */
export const NO_REMEMBERED_FACE: RememberedFace = { clientOptions: {}, droppedKnown: () => false, settled: () => Promise.resolve() };

export async function rememberedFace(choice: GraphitiServerChoice, stateDirectory: string, endpoint: string): Promise<RememberedFace> {
  if (choice !== 'auto') return NO_REMEMBERED_FACE;
  const record = FileServerFaceRecord.of(stateDirectory, endpoint);
  const known = await record.read();
  let onRecord = known;
  let dropped = false;
  // One write after the other: a probe's record and a later drop must land in that order.
  let writes = Promise.resolve();
  const onFace = (face: ServerFace | undefined): void => {
    if (face === undefined && onRecord === known) dropped = known !== undefined;
    if (face?.kind === onRecord) return;
    onRecord = face?.kind;
    writes = writes.then(() => (face === undefined ? record.forget() : record.remember(face.kind))).catch(() => undefined);
  };
  return {
    clientOptions: { ...(known === undefined ? {} : { knownFace: known }), onFace },
    droppedKnown: () => dropped,
    settled: () => writes,
  };
}
