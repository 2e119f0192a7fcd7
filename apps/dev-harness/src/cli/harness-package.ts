// This CLI's own package.json facts (src/cli and dist/cli sit at the same depth): its version and
// the Node it needs.
import fs from 'node:fs';

export interface HarnessPackage {
  readonly version: string;
  /** package.json's `engines.node`, e.g. `>=20.18.1`. */
  readonly nodeEngines: string;
}

export function harnessPackage(): HarnessPackage {
  try {
    const manifest = JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: unknown; engines?: { node?: unknown } };
    return {
      version: typeof manifest.version === 'string' ? manifest.version : 'unknown',
      nodeEngines: typeof manifest.engines?.node === 'string' ? manifest.engines.node : '>=20.18.1',
    };
  } catch {
    return { version: 'unknown', nodeEngines: '>=20.18.1' };
  }
}
