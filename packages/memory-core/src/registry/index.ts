/**
 * The registry of written groups: `GroupRegistry` (the port; `InMemoryGroupRegistry` for tests),
 * fed by `GroupRecorder` from what ingestion accepts.
 */
export {
  GroupRegistry,
  mergeGroupWrite,
  scopeOfGroupId,
  sortGroupRecords,
  type GroupRecord,
  type GroupWrite,
} from './group-registry.js';
export { GroupRecorder, GroupRecorderOptions, TITLE_MAX_CHARS, type AcceptedEntry } from './group-recorder.js';
export { InMemoryGroupRegistry } from './in-memory-group-registry.js';
