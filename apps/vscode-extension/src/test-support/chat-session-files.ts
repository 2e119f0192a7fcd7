// Saved VS Code chat sessions for the extension's capture tests: a snapshot line with finished
// requests, written where the window's capture reads them, then read at once.
import fs from 'node:fs';
import path from 'node:path';
import { CaptureContribution } from '../capture/capture-contribution.js';
import type { Harness } from './extension-harness.js';

/** One finished request of another participant, as VS Code saves it. */
export function finishedRequest(requestId: string, prompt: string, answer: string): Record<string, unknown> {
  return {
    requestId,
    timestamp: 1_763_900_000_000,
    message: { text: prompt, parts: [{ kind: 'text', text: prompt }] },
    agent: { id: 'github.copilot.default' },
    response: [{ value: answer, supportThemeIcons: false }],
    modelState: { value: 1, completedAt: 1_763_900_001_000 },
  };
}

/** Writes `chatSessions/<sessionId>.jsonl` of the window's workspace storage and scans it now. */
export async function captureChatSession(harness: Harness, sessionId: string, requests: readonly Record<string, unknown>[]): Promise<void> {
  const folder = path.join(harness.context.workspaceStorageFolder, 'chatSessions');
  fs.mkdirSync(folder, { recursive: true });
  fs.writeFileSync(path.join(folder, `${sessionId}.jsonl`), `${JSON.stringify({ kind: 0, v: { version: 3, sessionId, creationDate: 1_763_900_000_000, requests } })}\n`);
  await harness.container.get(CaptureContribution).scanNow();
}
