import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eventWorkspace } from './event-workspace.js';

let root: string;
beforeEach(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'event-workspace-'));
});
afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

describe('eventWorkspace', () => {
  it("takes the event's cwd (Claude Code), else the folder named by VS Code's workspace storage (Copilot), else the fallback", async () => {
    const project = path.join(root, 'my project');
    const storage = path.join(root, 'User', 'workspaceStorage', '0a1b2c');
    await fs.mkdir(project, { recursive: true });
    await fs.mkdir(path.join(storage, 'GitHub.copilot-chat', 'transcripts'), { recursive: true });
    await fs.writeFile(path.join(storage, 'workspace.json'), JSON.stringify({ folder: pathToFileURL(project).href }));
    const transcript = path.join(storage, 'GitHub.copilot-chat', 'transcripts', 'session-1.jsonl');
    expect(await eventWorkspace(project, transcript, root)).toBe(project);
    expect(await eventWorkspace(undefined, transcript, '/home/someone')).toBe(project);
    expect(await eventWorkspace(path.join(root, 'gone'), transcript, '/home/someone')).toBe(project);
    expect(await eventWorkspace(undefined, path.join(root, 'claude.jsonl'), '/home/someone')).toBe('/home/someone');
    await fs.writeFile(path.join(storage, 'workspace.json'), JSON.stringify({ workspace: 'file:///x/y.code-workspace' }));
    expect(await eventWorkspace(undefined, transcript, '/home/someone')).toBe('/home/someone');
  });
});
