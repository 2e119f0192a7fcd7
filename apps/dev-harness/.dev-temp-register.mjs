import { register } from 'node:module';
import { register as registerTsx } from 'tsx/esm/api';
registerTsx();
register('data:text/javascript,' + encodeURIComponent(`export async function resolve(specifier, context, next) { if (specifier === '@graphiti-memory/memory-core') return next('file:///tmp/harness-dev/core-index.ts', context); return next(specifier, context); }`));
