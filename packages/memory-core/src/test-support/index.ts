// Test helpers of memory-core (to be published as the `./testing` subpath).
export * from './fakes.js';
