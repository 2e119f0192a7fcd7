// ESLint rule `graphiti/layers`: every import is checked against the layer map of layers.js.
import { builtinModules } from 'node:module';
import path from 'node:path';
import { appLayer, layers, testFileLayer } from './layers.js';
import { findWorkspaceRoot, listWorkspacePackages, owningPackage } from './workspace.js';

const nodeBuiltins = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));
// Tests, the processes a test spawns (`*.test-child.ts`) and the build/test config files at a
// package root run only on a developer's Node, never in the shipped runtime, so they may use Node
// and the tooling packages. Test support and benchmarks are not exempt: test support follows its
// package's layer, benchmarks live in tooling/benchmarks.
const testFilePattern =
  /(\.test(-child)?\.[cm]?[jt]sx?$)|([\\/](vitest|eslint|esbuild)\.config\.[cm]?[jt]s$)/;

/** @param {string} specifier */
function isNodeBuiltin(specifier) {
  return specifier.startsWith('node:') || nodeBuiltins.has(specifier.split('/')[0] ?? specifier);
}

/** Bare module name of a specifier: `@scope/name` or `name`. @param {string} specifier */
function moduleName(specifier) {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? specifier);
}

/**
 * Whether every binding of the import is type-only (`import type`, `export type`, or all
 * specifiers marked `type`), so nothing of the module reaches the runtime.
 * @param {any} node
 */
function isTypeOnly(node) {
  if (node.importKind === 'type' || node.exportKind === 'type') return true;
  const specifiers = node.specifiers ?? [];
  return (
    specifiers.length > 0 &&
    specifiers.every(
      (/** @type {any} */ specifier) => specifier.importKind === 'type' || specifier.exportKind === 'type',
    )
  );
}

/** @type {import('eslint').Rule.RuleModule} */
export const layersRule = {
  meta: {
    type: 'problem',
    docs: { description: 'Enforce the dependency direction between workspace packages (DESIGN.md).' },
    schema: [],
    messages: {
      crossRelative:
        "'{{specifier}}' reaches into another package by a relative path. Import it by its package name ('{{target}}') through its exports.",
      deepImport:
        "'{{specifier}}' is not an entry of {{target}}'s `exports` ({{allowed}}). Import the package entry instead of its files.",
      importsApp: "'{{specifier}}' is an app. Packages and apps never import an app: move the shared code into a package.",
      notAllowed:
        "{{from}} may not import '{{target}}' (layer rule, DESIGN.md). Allowed workspace imports: {{allowed}}.",
      typeOnly:
        "{{from}} may import '{{target}}' only as `import type` (layer rule, DESIGN.md): nothing of it may reach the runtime.",
      nodeBuiltin:
        "{{from}} is platform-agnostic and may not import the Node module '{{specifier}}'. Put Node code in memory-node-storage or an app, behind a port.",
      forbidden: "{{from}} may not import '{{specifier}}' (layer rule, DESIGN.md).",
    },
  },
  create(context) {
    const filename = context.filename;
    const root = findWorkspaceRoot(path.dirname(filename));
    if (!root) return {};
    const packages = listWorkspacePackages(root);
    const current = owningPackage(packages, filename);
    if (!current) return {};
    const isTestFile = testFilePattern.test(filename);
    // A package's build scripts (scripts/*.mjs) bundle it with the tooling's esbuild plugins; they
    // never ship, so tooling is theirs to import, as it is a test's.
    const isBuildScript = current !== undefined && path.relative(current.dir, filename).split(path.sep)[0] === 'scripts';
    const isApp = current.kind === 'apps';
    const layer = isApp ? undefined : layers[current.name];
    const byName = new Map(packages.map((candidate) => [candidate.name, candidate]));

    /**
     * @param {any} node
     * @param {string} specifier
     * @param {boolean} typeOnly
     */
    function check(node, specifier, typeOnly) {
      const report = (/** @type {string} */ messageId, /** @type {Record<string, string>} */ data) =>
        context.report({ node, messageId, data: { specifier, from: current?.name ?? '', ...data } });

      if (specifier.startsWith('.')) {
        const resolved = path.resolve(path.dirname(filename), specifier);
        const target = owningPackage(packages, resolved);
        if (current && target?.dir !== current.dir) {
          report('crossRelative', { target: target?.name ?? 'the package it lives in' });
        }
        return;
      }

      const name = moduleName(specifier);
      const target = byName.get(name);
      if (target) {
        if (target.name === current?.name) return;
        if (target.kind === 'apps') return report('importsApp', {});
        const subpath = '.' + specifier.slice(name.length);
        if (!target.exports.includes(subpath)) {
          return report('deepImport', { target: target.name, allowed: target.exports.join(', ') });
        }
        if (isApp || (target.kind === 'tooling' && (isTestFile || isBuildScript))) return;
        /** @type {Record<string, string | undefined>} */
        const allowedWorkspace = {
          ...(layer?.workspace ?? {}),
          ...(isTestFile ? testFileLayer.extraWorkspace : {}),
        };
        const how = allowedWorkspace[target.name];
        const allowedList = Object.keys(allowedWorkspace).join(', ') || 'none';
        if (!layer) return;
        if (!how) return report('notAllowed', { target: target.name, allowed: allowedList });
        const runtimeSubpaths = layer.runtimeSubpaths?.[target.name] ?? [];
        if (how === 'type' && !typeOnly && !runtimeSubpaths.includes(subpath)) return report('typeOnly', { target: target.name });
        return;
      }

      const effective = isApp ? appLayer : layer;
      if (!effective) return;
      if (isNodeBuiltin(specifier)) {
        if (!effective.nodeBuiltins && !(isTestFile && testFileLayer.nodeBuiltins) && !typeOnly) {
          report('nodeBuiltin', {});
        }
        return;
      }
      const typeOnlyModules = 'typeOnlyModules' in effective ? (effective.typeOnlyModules ?? []) : [];
      const forbiddenModules = 'forbiddenModules' in effective ? (effective.forbiddenModules ?? []) : [];
      if (forbiddenModules.includes(name) && !(isTestFile && name === 'undici')) {
        report('forbidden', {});
      } else if (typeOnlyModules.includes(name) && !typeOnly) {
        report('typeOnly', { target: name });
      }
    }

    return {
      ImportDeclaration(node) {
        check(node, String(node.source.value), isTypeOnly(node));
      },
      ExportNamedDeclaration(node) {
        if (node.source) check(node, String(node.source.value), isTypeOnly(node));
      },
      ExportAllDeclaration(node) {
        check(node, String(node.source.value), isTypeOnly(node));
      },
      ImportExpression(node) {
        if (node.source.type === 'Literal' && typeof node.source.value === 'string') {
          check(node, node.source.value, false);
        }
      },
      CallExpression(node) {
        const callee = node.callee;
        const first = node.arguments[0];
        if (
          callee.type === 'Identifier' &&
          callee.name === 'require' &&
          first?.type === 'Literal' &&
          typeof first.value === 'string'
        ) {
          check(node, first.value, false);
        }
      },
    };
  },
};
