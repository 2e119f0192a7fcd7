export {
  contentHash,
  conversationNodeId,
  mirrorEpisodeName,
  mirrorNodeUuid,
  referenceNodeId,
  sectionNodeId,
  toolNodeId,
  toolResultNodeId,
  turnNodeId,
} from './mirror-ids.js';
export {
  buildMirrorRecord,
  MIRROR_LINE_MAX_CHARS,
  MIRROR_RECORD_FORMAT,
  type MirrorRecord,
  type MirrorRecordOptions,
  type MirrorReference,
  type MirrorSection,
  type MirrorToolCall,
} from './mirror-record.js';
export { mirrorStructure } from './mirror-structure.js';
export { writeMirrorEntry, type MirrorWrite } from './mirror-writer.js';
export { MIRROR_QUEUE_LIMIT, TurnMirror, type MirrorStats } from './turn-mirror.js';
export { CODING_ENTITY_TYPES, CODING_ONTOLOGY_INSTRUCTIONS, CODING_RELATIONS } from './coding-ontology.js';
