// Public entry of @graphiti-memory/memory-core. Each area has its own barrel; keep this list sorted.
export * from './ports.js';
