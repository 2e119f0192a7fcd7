import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { activate } from './extension.js';
import { chatRegistrations, createExtensionContext, testHost, windowRegistry } from './test-support/vscode-double.js';

const manifest = JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  contributes: { commands: { command: string }[]; chatParticipants: { id: string }[]; languageModelTools: { name: string }[]; views: { explorer: { id: string }[] } };
};

describe('activate', () => {
  it('registers every command, the participant, the tools and the view the manifest declares, and sends nothing', async () => {
    const context = createExtensionContext();
    try {
      const api = activate(context.context);
      expect([...testHost().commands.keys()].sort()).toEqual(manifest.contributes.commands.map((command) => command.command).sort());
      expect([...chatRegistrations().participants.keys()]).toEqual(manifest.contributes.chatParticipants.map((participant) => participant.id));
      expect([...chatRegistrations().tools.keys()].sort()).toEqual(manifest.contributes.languageModelTools.map((tool) => tool.name).sort());
      expect([...windowRegistry().treeViews.keys()]).toEqual(manifest.contributes.views.explorer.map((view) => view.id));
      expect(api.status().state).toBe('off');
      expect(windowRegistry().statusBarItems[0]?.text).toContain('Memory: off');
    } finally {
      await context.dispose();
    }
  });
});
