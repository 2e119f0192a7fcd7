// The walkthrough's steps tick on the real event (issue 32 item 5): a successful test (never a
// failed one), an endpoint the user set, a first memory, a first recall that found something.
import type * as vscode from 'vscode';
import { describe, expect, it } from 'vitest';
import { SEARCH_TOOL } from '../tools/memory-tools.js';
import { activateExtension, waitFor } from '../test-support/extension-harness.js';
import { chatRegistrations, noCancellation, testHost } from '../test-support/vscode-double.js';
import { WALKTHROUGH_CONTEXT } from './walkthrough-progress.js';

const ticked = (key: keyof typeof WALKTHROUGH_CONTEXT) => testHost().contextKeys.get(WALKTHROUGH_CONTEXT[key]) === true;

describe('the walkthrough ticks on real events', () => {
  it('"Test the connection" ticks on a test that succeeded, never on one that failed', async () => {
    const harness = await activateExtension({ emulator: { faults: { healthcheck: { errorRate: 1 } } } });
    expect(await harness.command<{ ok: boolean }>('graphitiMemory.testConnection', 'health')).toMatchObject({ ok: false });
    expect(ticked('connectionTested')).toBe(false);
    harness.emulator.setFaults({});
    expect(await harness.command<{ ok: boolean }>('graphitiMemory.testConnection', 'health')).toMatchObject({ ok: true });
    expect(ticked('connectionTested')).toBe(true);
  });

  it('"Set your endpoint" ticks when the endpoint in force is one the user set', async () => {
    // The harness sets the emulator's URL in the VS Code settings, as a user would.
    await activateExtension();
    await waitFor(() => ticked('endpointSet'), 5000, 'the endpoint step ticked');
  });

  it('"Store a first memory" ticks once a memory is kept, and "a first recall" once recall found one', async () => {
    const harness = await activateExtension({ settings: { 'graphitiMemory.enabled': true, 'graphitiMemory.recall.enabled': true }, consented: true });
    expect(ticked('memoryStored')).toBe(false);
    await harness.command('graphitiMemory.promote', { kind: 'decision', scope: 'workspace', text: 'We deploy the API with Fly.io.' });
    await waitFor(() => ticked('memoryStored'), 10_000, 'the first-memory step ticked');
    await waitFor(() => harness.emulator.state.episodes().length > 0, 10_000, 'the memory stored');
    await harness.emulator.idle();
    expect(ticked('recalledMemory')).toBe(false);
    const tool = chatRegistrations().tools.get(SEARCH_TOOL);
    await tool?.invoke({ input: { query: 'How do we deploy the API with Fly.io?' }, toolInvocationToken: undefined } as vscode.LanguageModelToolInvocationOptions<unknown>, noCancellation());
    expect(ticked('recalledMemory')).toBe(true);
  });
});
