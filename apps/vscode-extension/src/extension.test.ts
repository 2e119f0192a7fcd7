import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import type * as vscode from 'vscode';
import * as runtimeModule from './runtime.js';
import { activateEntry } from './entry/activate-entry.js';
import type { RuntimeModule } from './entry/runtime-module.js';
import { activateExtension } from './test-support/extension-harness.js';
import { chatRegistrations, createExtensionContext, presetSettings, testHost, updateSettings, windowRegistry } from './test-support/vscode-double.js';

const manifest = JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  contributes: { commands: { command: string }[]; chatParticipants: { id: string }[]; languageModelTools: { name: string }[]; views: { explorer: { id: string }[] } };
};
const commandIds = manifest.contributes.commands.map((command) => command.command).sort();

/** The source runtime, counting how often the entry loads it. */
function countingRuntime(): { readonly module: RuntimeModule; loads(): number } {
  let loads = 0;
  return {
    module: {
      startMemoryRuntime: (options) => {
        loads += 1;
        return runtimeModule.startMemoryRuntime(options);
      },
    },
    loads: () => loads,
  };
}


describe('activate', () => {
  it('registers every command, the participant, the tools and the view the manifest declares, and sends nothing', async () => {
    const context = createExtensionContext();
    try {
      const api = activateEntry(context.context, { loadRuntime: () => runtimeModule });
      expect([...testHost().commands.keys()].sort()).toEqual(commandIds);
      expect([...chatRegistrations().participants.keys()]).toEqual(manifest.contributes.chatParticipants.map((participant) => participant.id));
      expect([...chatRegistrations().tools.keys()].sort()).toEqual(manifest.contributes.languageModelTools.map((tool) => tool.name).sort());
      expect([...windowRegistry().treeViews.keys()]).toEqual(manifest.contributes.views.explorer.map((view) => view.id));
      expect(api.status().state).toBe('off');
      expect(windowRegistry().statusBarItems[0]?.text).toContain('Memory: off');
    } finally {
      await context.dispose();
    }
  });

  it('does not load the memory runtime while memory is off, nor when it is on in an untrusted workspace', async () => {
    const runtime = countingRuntime();
    const context = createExtensionContext();
    try {
      testHost().trusted = false;
      activateEntry(context.context, { loadRuntime: () => runtime.module });
      expect(windowRegistry().statusBarItems[0]?.text).toContain('Memory: off');
      updateSettings({ 'graphitiMemory.enabled': true });
      expect(windowRegistry().statusBarItems[0]?.text).toContain('off (untrusted)');
      expect(testHost().contextKeys.get('graphitiMemory.state')).toBe('untrusted');
      expect(await chatRegistrations().participants.get('graphiti-memory.memory')?.followupProvider?.provideFollowups({}, { history: [] }, never()) ?? []).toEqual([]);
      expect(await windowRegistry().treeViews.get('graphitiMemory.episodes')?.treeDataProvider.getChildren()).toEqual([]);
      expect(runtime.loads()).toBe(0);
    } finally {
      await context.dispose();
    }
  });

  it('loads the runtime once when memory is turned on in a trusted workspace', async () => {
    const runtime = countingRuntime();
    const context = createExtensionContext();
    try {
      activateEntry(context.context, { loadRuntime: () => runtime.module });
      expect(runtime.loads()).toBe(0);
      updateSettings({ 'graphitiMemory.enabled': true });
      expect(runtime.loads()).toBe(1);
      expect(windowRegistry().statusBarItems).toHaveLength(1);
      expect(windowRegistry().statusBarItems[0]?.text).toContain('needs consent');
      updateSettings({ 'graphitiMemory.recall.enabled': true });
      expect(runtime.loads()).toBe(1);
    } finally {
      await context.dispose();
    }
  });

  it('loads the runtime at activation when memory is already on and trusted', async () => {
    const runtime = countingRuntime();
    const context = createExtensionContext();
    try {
      presetSettings({ 'graphitiMemory.enabled': true });
      activateEntry(context.context, { loadRuntime: () => runtime.module });
      expect(runtime.loads()).toBe(1);
    } finally {
      await context.dispose();
    }
  });

  it('gives every contributed command a runtime handler: after the first use, no forwarder is left', async () => {
    const harness = await activateExtension();
    const forwarders = new Map(testHost().commands);
    expect(harness.runtimeLoaded()).toBe(false);
    await harness.command('graphitiMemory.showStatus');
    expect(harness.runtimeLoaded()).toBe(true);
    expect([...testHost().commands.keys()].sort()).toEqual(commandIds);
    const stillForwarding = commandIds.filter((id) => testHost().commands.get(id) === forwarders.get(id));
    expect(stillForwarding).toEqual([]);
  });

  it('gives every contributed participant, tool and view a runtime implementation', async () => {
    const harness = await activateExtension();
    void harness.container;
    const search = chatRegistrations().tools.get('graphiti_memory_search');
    const result = await search?.invoke({ input: { query: 'release branch' }, toolInvocationToken: undefined }, never());
    expect(JSON.stringify(result)).toContain('memory');
    for (const { name } of manifest.contributes.languageModelTools) {
      await expect(chatRegistrations().tools.get(name)?.invoke({ input: {}, toolInvocationToken: undefined }, never())).resolves.toBeDefined();
    }
  });

  it('explains, and keeps the commands, when the runtime cannot be loaded', async () => {
    const context = createExtensionContext();
    try {
      activateEntry(context.context, {
        loadRuntime: () => {
          throw new Error('Cannot find module ./runtime.cjs');
        },
      });
      await testHost().commands.get('graphitiMemory.showStatus')?.();
      expect([...testHost().commands.keys()].sort()).toEqual(commandIds);
      expect(testHost().shownMessages.map((shown) => shown.message).join('\n')).toContain('could not load its memory runtime');
      expect(windowRegistry().outputChannels.map((channel) => channel.text()).join('\n')).toContain('the memory runtime failed to load (Error)');
    } finally {
      await context.dispose();
    }
  });
});

function never(): vscode.CancellationToken {
  return { isCancellationRequested: false, onCancellationRequested: () => ({ dispose: () => undefined }) };
}
