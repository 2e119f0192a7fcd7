export { mirrorNodeUuid } from './mirror-ids.js';
export { buildMirrorRecord, MIRROR_RECORD_FORMAT, type MirrorRecord } from './mirror-record.js';
export { mirrorStructure } from './mirror-structure.js';
export { writeMirrorEntry, type MirrorWrite } from './mirror-writer.js';
export { TurnMirror, type MirrorStats } from './turn-mirror.js';
export { CODING_ONTOLOGY_INSTRUCTIONS } from './coding-ontology.js';
