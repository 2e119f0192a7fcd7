import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultAgentHookPlaces } from './agent-hook-places.js';

const root = path.resolve(import.meta.dirname, '../..');
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  contributes: {
    chatInstructions: { path: string; when: string }[];
    languageModelTools: { name: string; toolReferenceName: string }[];
  };
};

describe('agent hooks: what ships', () => {
  it('the chat instructions name the search tool by its reference name, show only while memory is on, and ship in the VSIX', () => {
    const [instructions] = manifest.contributes.chatInstructions;
    const search = manifest.contributes.languageModelTools.find((tool) => tool.name === 'graphiti_memory_search');
    expect(instructions).toBeDefined();
    const text = fs.readFileSync(path.join(root, instructions!.path), 'utf8');
    expect(text).toContain(`#${search!.toolReferenceName}`);
    for (const state of ['ok', 'failing', 'notProcessing']) expect(instructions!.when).toContain(`graphitiMemory.state == ${state}`);
    expect(instructions!.when).not.toMatch(/off|needsConsent|untrusted|invalid/);
    const allowed = fs.readFileSync(path.join(root, '.vscodeignore'), 'utf8').split('\n');
    expect(allowed).toContain(`!${path.normalize(instructions!.path)}`);
    expect(allowed).toContain('!dist/hook-runner.cjs');
    expect(allowed).toContain('!dist/hook-runner-core-*.cjs');
  });

  it('runs the runner with VS Code\'s own runtime: as node on a server, Electron as node on the desktop', () => {
    const places = defaultAgentHookPlaces('/opt/extensions/graphiti-memory', '0.1.0');
    expect(places.bundledRunner).toBe(path.join('/opt/extensions/graphiti-memory', 'dist', 'hook-runner.cjs'));
    expect(places.runtime.path).toBe(process.execPath);
    // Vitest runs on node: no Electron, so no variable.
    expect(places.runtime.environment).toEqual(process.versions.electron === undefined ? {} : { ELECTRON_RUN_AS_NODE: '1' });
  });
});
