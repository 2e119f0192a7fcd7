// Public entry of @graphiti-memory/memory-core. Each area has its own barrel; keep this list sorted.
export * from './audit/index.js';
export * from './directives/index.js';
export * from './forget/index.js';
export * from './gate/index.js';
export * from './ingestion/index.js';
export * from './mapping/index.js';
export * from './memory-module.js';
export * from './planning/index.js';
export * from './ports.js';
export * from './promotion/index.js';
export * from './recall/index.js';
export * from './registry/index.js';
export * from './review/index.js';
export * from './scopes/index.js';
export * from './secrets/index.js';
export * from './settings/index.js';
export * from './transcripts/index.js';
