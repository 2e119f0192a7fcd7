// core-B's part of the public entry (ingestion); the lead merges it into index.ts as
// `export * from './ingestion/index.js';`. Benchmarks are exported from './bench/index.js' for a
// `./bench` subpath, not from here.
export * from './ingestion/index.js';
