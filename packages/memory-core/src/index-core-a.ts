// Exports of the policy services (settings, gate, scopes, mapping, planning, promotion, recall),
// to be merged into src/index.ts by the lead. Test helpers live in src/test-support (the
// `./testing` subpath), not here.
export * from './gate/index.js';
export * from './mapping/index.js';
export * from './planning/index.js';
export * from './promotion/index.js';
export * from './recall/index.js';
export * from './scopes/index.js';
export * from './settings/index.js';
