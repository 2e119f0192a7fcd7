// Test helpers of memory-core (to be published as the `./testing` subpath).
export * from './fake-graphiti-api.js';
export * from './emulator-delivery.js';
export * from './fakes.js';
export * from './memory-services.js';
