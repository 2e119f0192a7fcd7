// Reads the workspace layout once per lint run: which package owns a file, and what each
// workspace package exports. The layer rule needs both and must not guess from folder names alone.
import fs from 'node:fs';
import path from 'node:path';

/**
 * @typedef {{ name: string, dir: string, kind: 'packages' | 'apps' | 'tooling', exports: string[] }} WorkspacePackage
 */

/** @type {Map<string, WorkspacePackage[]>} */
const packagesByRoot = new Map();

/**
 * The folder holding pnpm-workspace.yaml above `start`, or undefined outside a workspace.
 * @param {string} start
 * @returns {string | undefined}
 */
export function findWorkspaceRoot(start) {
  let directory = path.resolve(start);
  for (;;) {
    if (fs.existsSync(path.join(directory, 'pnpm-workspace.yaml'))) return directory;
    const parent = path.dirname(directory);
    if (parent === directory) return undefined;
    directory = parent;
  }
}

/**
 * Every workspace package under packages/, apps/ and tooling/.
 * @param {string} root
 * @returns {WorkspacePackage[]}
 */
export function listWorkspacePackages(root) {
  const cached = packagesByRoot.get(root);
  if (cached) return cached;
  /** @type {WorkspacePackage[]} */
  const found = [];
  for (const kind of /** @type {const} */ (['packages', 'apps', 'tooling'])) {
    const parent = path.join(root, kind);
    if (!fs.existsSync(parent)) continue;
    for (const entry of fs.readdirSync(parent, { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      const manifestPath = path.join(parent, entry.name, 'package.json');
      if (!fs.existsSync(manifestPath)) continue;
      const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8'));
      const exportsField = manifest.exports;
      const exportKeys =
        exportsField && typeof exportsField === 'object' && !Array.isArray(exportsField)
          ? Object.keys(exportsField).filter((key) => key.startsWith('.'))
          : ['.'];
      found.push({ name: manifest.name, dir: path.join(parent, entry.name), kind, exports: exportKeys });
    }
  }
  packagesByRoot.set(root, found);
  return found;
}

/**
 * The workspace package whose folder holds `filePath`.
 * @param {WorkspacePackage[]} packages
 * @param {string} filePath
 * @returns {WorkspacePackage | undefined}
 */
export function owningPackage(packages, filePath) {
  const absolute = path.resolve(filePath);
  return packages
    .filter((candidate) => absolute === candidate.dir || absolute.startsWith(candidate.dir + path.sep))
    .sort((a, b) => b.dir.length - a.dir.length)[0];
}
