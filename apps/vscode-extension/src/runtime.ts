// Entry of the second bundle, dist/runtime.cjs: `require`d by the small entry (extension.ts) only
// when memory is on and trusted, or on first use of a command, the participant, a tool or the view.
export { startMemoryRuntime } from './composition/start-memory-runtime.js';
export { recordWorkspaceTrust } from './consent/memory-switch-recorder.js';
