// A project file asking for more than it may (untrusted) is named once per content, with "Trust
// This File" recording the same trust as `graphiti-harness config trust`, which the hooks read.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resolveMemoryConfig } from '@graphiti-memory/memory-node-storage';
import { activateExtension, waitFor, type Harness } from '../test-support/extension-harness.js';
import { answerMessages, testHost } from '../test-support/vscode-double.js';
import type { StatusReport } from '../status/status-commands.js';
import { KEEP_IGNORING, ProjectTrustPrompt, TRUST_FILE } from './project-trust-prompt.js';

let root: string;
let workspace: string;
let projectFile: string;

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'project-trust-prompt-'));
  vi.stubEnv('GRAPHITI_MEMORY_CONFIG_DIR', path.join(root, 'config'));
  workspace = path.join(root, 'repo');
  projectFile = path.join(workspace, '.graphiti-memory.json');
  fs.mkdirSync(workspace, { recursive: true });
  fs.writeFileSync(projectFile, JSON.stringify({ groupIdStrategy: 'raw', recall: { maxFacts: 5 } }));
});

afterEach(() => {
  vi.unstubAllEnvs();
  fs.rmSync(root, { recursive: true, force: true });
});

const trustQuestions = () => testHost().shownMessages.filter((shown) => shown.message.includes('Trust this file?'));

async function groupIdStrategy(harness: Harness): Promise<unknown> {
  answerMessages(undefined);
  const report = await harness.command<StatusReport>('graphitiMemory.showStatus');
  return report.configuration?.settings.find((setting) => setting.key === 'groupIdStrategy');
}

describe('the project file trust prompt', () => {
  it('names the ignored keys; trusting applies them here and for the hooks, and lapses when the file changes', async () => {
    answerMessages(TRUST_FILE);
    const harness = await activateExtension({ workspaceFolder: workspace });
    await harness.container.get(ProjectTrustPrompt).check();
    expect(trustQuestions()).toHaveLength(1);
    expect(trustQuestions()[0]).toMatchObject({ items: [TRUST_FILE, KEEP_IGNORING, 'Open File'] });
    expect(trustQuestions()[0]?.message).toContain(projectFile);
    expect(trustQuestions()[0]?.message).toContain('groupIdStrategy');
    // What only narrows is applied already, and not asked about.
    expect(trustQuestions()[0]?.message).not.toContain('recall.maxFacts');
    expect(await groupIdStrategy(harness)).toMatchObject({ value: 'raw', origin: 'project' });
    // The same store the harness and the hooks read.
    const forHooks = await resolveMemoryConfig({ workspaceFolder: workspace, env: process.env });
    expect(forHooks.ok && forHooks.config.projectTrusted).toBe(true);
    // An edit ends the trust, and the new content is asked about once.
    fs.writeFileSync(projectFile, JSON.stringify({ groupIdStrategy: 'raw' }));
    answerMessages(KEEP_IGNORING);
    await harness.container.get(ProjectTrustPrompt).check();
    expect(trustQuestions()).toHaveLength(2);
    const afterEdit = await resolveMemoryConfig({ workspaceFolder: workspace, env: process.env });
    expect(afterEdit.ok && afterEdit.config.projectTrusted).toBe(false);
  });

  it('trusts the content it asked about (the configuration\'s digest), never an edit made while the question was open', async () => {
    const asked = JSON.stringify({ groupIdStrategy: 'raw', recall: { maxFacts: 5 } });
    let questions = 0;
    answerMessages(() => {
      questions += 1;
      if (questions > 1) return undefined;
      // Pulled while the question is on screen: the answer was about the content before.
      fs.writeFileSync(projectFile, JSON.stringify({ groupIdStrategy: 'raw', recall: { maxFacts: 4 } }));
      return TRUST_FILE;
    });
    const harness = await activateExtension({ workspaceFolder: workspace });
    await harness.container.get(ProjectTrustPrompt).check();
    const edited = await resolveMemoryConfig({ workspaceFolder: workspace, env: process.env });
    expect(edited.ok && edited.config.projectTrusted).toBe(false);
    // The content the user saw is the one trusted.
    fs.writeFileSync(projectFile, asked);
    const seen = await resolveMemoryConfig({ workspaceFolder: workspace, env: process.env });
    expect(seen.ok && seen.config.projectTrusted).toBe(true);
  });

  it('"Keep Ignoring" is remembered for this content (in global state, so for later windows too): no question again', async () => {
    answerMessages(KEEP_IGNORING);
    const harness = await activateExtension({ workspaceFolder: workspace });
    await harness.container.get(ProjectTrustPrompt).check();
    await harness.container.get(ProjectTrustPrompt).check();
    expect(trustQuestions()).toHaveLength(1);
    expect(await groupIdStrategy(harness)).toMatchObject({ value: 'hashed', origin: 'default' });
    const stored = harness.context.context.globalState.get<string[]>('graphitiMemory.projectTrustAnswered');
    expect(stored).toHaveLength(1);
  });

  it('asks nothing when the project file only narrows, or in an untrusted workspace', async () => {
    fs.writeFileSync(projectFile, JSON.stringify({ recall: { maxFacts: 5 } }));
    const harness = await activateExtension({ workspaceFolder: workspace });
    expect(await harness.container.get(ProjectTrustPrompt).check()).toBeUndefined();
    await waitFor(() => true);
    expect(trustQuestions()).toHaveLength(0);
  });
});
