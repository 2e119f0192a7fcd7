export { MAX_STALE_CHECKS, pathsNamedIn } from './stale-paths.js';
export { STALE_SETTINGS, WorkspaceFiles, type StaleSetting } from './workspace-files.js';
