// Where this harness is installed: the folder of its package.json, found upward from this module.
// The same code runs from a checkout (src/cli, dist/cli) and from the packed, bundled CLI
// (dist/bin.js), whose folders sit at other depths; the manifest that ships names the version and
// the Node it needs.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** What package.json says when it does not say (a manifest without `engines.node`). */
const DEFAULT_NODE_ENGINES = '>=20.18.1';

export interface HarnessPackage {
  /** The folder holding the harness's package.json (and bin/graphiti-harness.js). */
  readonly root: string;
  /** Its version; `unknown` when no manifest was found. */
  readonly version: string;
  /** package.json's `engines.node`, e.g. `>=20.18.1`. */
  readonly nodeEngines: string;
}

let found: HarnessPackage | undefined;

export function harnessPackage(): HarnessPackage {
  found ??= locate(path.dirname(fileURLToPath(import.meta.url)));
  return found;
}

/** `bin/graphiti-harness.js` of this installation. */
export function harnessBinary(): string {
  return path.join(harnessPackage().root, 'bin', 'graphiti-harness.js');
}

function locate(start: string): HarnessPackage {
  for (let folder = start; ; folder = path.dirname(folder)) {
    try {
      const manifest = JSON.parse(fs.readFileSync(path.join(folder, 'package.json'), 'utf8')) as { version?: unknown; bin?: unknown; engines?: { node?: unknown } };
      if (typeof manifest.bin === 'object' && manifest.bin !== null && 'graphiti-harness' in manifest.bin) {
        return {
          root: folder,
          version: typeof manifest.version === 'string' ? manifest.version : 'unknown',
          nodeEngines: typeof manifest.engines?.node === 'string' ? manifest.engines.node : DEFAULT_NODE_ENGINES,
        };
      }
    } catch {
      // No manifest here (or not ours): look further up.
    }
    if (path.dirname(folder) === folder) return { root: path.resolve(start, '..', '..'), version: 'unknown', nodeEngines: DEFAULT_NODE_ENGINES };
  }
}
