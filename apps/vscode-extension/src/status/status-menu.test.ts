// The status item's quick pick: which actions each state offers (pure), and the click itself.
import { describe, expect, it } from 'vitest';
import { activateExtension, waitFor } from '../test-support/extension-harness.js';
import { answerMessages, answerQuickPicks, testHost, updateSettings, windowRegistry } from '../test-support/vscode-double.js';
import type { StatusMenuResult } from './status-menu-command.js';
import { MENU, nextStep, statusMenuItems, type StatusMenuInput } from './status-menu-items.js';

const labels = (input: Partial<StatusMenuInput> & Pick<StatusMenuInput, 'state'>) =>
  statusMenuItems({ recallEnabled: true, pending: 0, deadLetters: 0, agentsConnected: true, ...input }).map((item) => item.label);

describe('status menu items', () => {
  it('offers the next step of each state first', () => {
    expect(labels({ state: 'off' })[0]).toBe(MENU.enable.label);
    expect(labels({ state: 'needsConsent' })[0]).toBe(MENU.consent.label);
    expect(labels({ state: 'revoked' })[0]).toBe(MENU.consent.label);
    expect(labels({ state: 'failing' })[0]).toBe(MENU.test.label);
    expect(labels({ state: 'notProcessing' })[0]).toBe(MENU.test.label);
    expect(labels({ state: 'untrusted' })[0]).toBe(MENU.trust.label);
    expect(labels({ state: 'invalid' })[0]).toBe(MENU.settings.label);
  });

  it("names Show Status's and /status's next step after the menu's own item (one table)", () => {
    const step = (input: Partial<StatusMenuInput> & Pick<StatusMenuInput, 'state'>) => nextStep({ recallEnabled: true, deadLetters: 0, ...input });
    expect(step({ state: 'off' })).toEqual({ title: 'Enable Here', command: MENU.enable.command });
    expect(step({ state: 'revoked' })).toEqual({ title: 'Give Consent', command: MENU.consent.command });
    expect(step({ state: 'ok', recallEnabled: false })).toEqual({ title: 'Turn Recall On', command: MENU.recallOn.command });
    expect(step({ state: 'failing', deadLetters: 2 })).toEqual({ title: 'Retry Unsent Messages', command: MENU.retry.command });
    expect(step({ state: 'ok' })).toBeUndefined();
    expect(step({ state: 'untrusted' })).toBeUndefined();
    // Each step is an item of the menu for that state.
    for (const state of ['off', 'needsConsent', 'revoked', 'ok', 'failing'] as const) {
      const next = step({ state, recallEnabled: false, deadLetters: 1 });
      const items = statusMenuItems({ state, recallEnabled: false, pending: 0, deadLetters: 1, agentsConnected: true });
      expect(items.some((item) => item.command === next?.command && item.label.endsWith(next.title))).toBe(true);
    }
  });

  it('after a revoke offers forgetting, never as a to-do of consent alone; off offers no Disable', () => {
    expect(labels({ state: 'revoked' })).toEqual([MENU.consent.label, MENU.forget.label, MENU.sent.label, MENU.disable.label, MENU.details.label]);
    expect(labels({ state: 'off' })).not.toContain(MENU.disable.label);
    expect(labels({ state: 'untrusted' })).not.toContain(MENU.enable.label);
  });

  it('when on, offers Turn Recall On only while recall is off, pending review, retry and Connect only when they apply', () => {
    expect(labels({ state: 'ok' })).toEqual([MENU.test.label, MENU.sent.label, MENU.settings.label, MENU.disable.label, MENU.details.label]);
    const busy = statusMenuItems({ state: 'ok', recallEnabled: false, pending: 2, deadLetters: 3, agentsConnected: false });
    expect(busy.map((item) => item.label)).toEqual([
      MENU.pending.label,
      MENU.recallOn.label,
      MENU.retry.label,
      MENU.test.label,
      MENU.sent.label,
      MENU.connect.label,
      MENU.settings.label,
      MENU.disable.label,
      MENU.details.label,
    ]);
    expect(busy[0]?.detail).toBe('2 memories wait for your review');
    // A category switched on but not agreed to: consent comes first.
    expect(labels({ state: 'ok', unconsentedCategories: 1 })[0]).toBe(MENU.consent.label);
    expect(busy[2]?.detail).toBe('3 message(s) not stored; they are not sent again on their own');
  });

  it('speaks plain words with codicons: no class names or internal counters', () => {
    for (const state of ['off', 'untrusted', 'invalid', 'needsConsent', 'revoked', 'ok', 'failing', 'notProcessing'] as const) {
      for (const item of statusMenuItems({ state, recallEnabled: false, pending: 1, deadLetters: 1, agentsConnected: false })) {
        expect(item.label).toMatch(/^\$\([a-z-]+\) [A-Z]/);
        expect(`${item.label} ${item.detail ?? ''}`).not.toMatch(/dead letter|Error\b|enqueued/i);
      }
    }
  });
});

describe('clicking the status item', () => {
  it('opens the menu for the state and runs the picked action (off → Enable Here asks for consent)', async () => {
    const harness = await activateExtension();
    expect(windowRegistry().statusBarItems[0]?.command).toBe('graphitiMemory.statusMenu');
    answerQuickPicks(MENU.enable.label);
    answerMessages('Allow');
    const result = await harness.command<StatusMenuResult>('graphitiMemory.statusMenu');
    expect(result.offered[0]?.label).toBe(MENU.enable.label);
    expect(testHost().shownQuickPicks[0]?.options?.placeHolder).toContain('Memory is off here');
    expect(testHost().shownMessages[0]).toMatchObject({ modal: true, message: `Allow Graphiti Memory to remember this workspace's chat in ${harness.emulator.url} and recall it into answers?` });
    expect(testHost().settings.get('graphitiMemory.enabled')).toBe(true);
    expect(windowRegistry().statusBarItems[0]?.text).toContain('Memory: on');
  });

  it('when on with recall off, offers Turn Recall On, which turns recall on and asks to send questions as searches', async () => {
    const harness = await activateExtension({ settings: { 'graphitiMemory.enabled': true }, consented: true });
    answerQuickPicks(MENU.recallOn.label);
    const allowModal = (shown: { modal: boolean }) => (shown.modal ? 'Allow' : undefined);
    answerMessages(allowModal, allowModal);
    const result = await harness.command<StatusMenuResult>('graphitiMemory.statusMenu');
    expect(result.picked?.command).toBe('graphitiMemory.enableRecall');
    expect(testHost().settings.get('graphitiMemory.recall.enabled')).toBe(true);
    // Recall sends questions: consent for that category is asked, naming it.
    await waitFor(() => (harness.context.workspaceState.get<{ categories?: string[] }>('graphitiMemory.consent')?.categories ?? []).includes('recallQueries'), 3000, 'consent to recall queries');
    expect(testHost().shownMessages.find((shown) => shown.modal)?.message).toContain('also send');
    const status = await harness.command<{ summary: string; recallEnabled: boolean }>('graphitiMemory.showStatus');
    expect(status.recallEnabled).toBe(true);
    expect(status.summary).not.toContain('Recall is off');
  });

  it('Escape runs nothing', async () => {
    const harness = await activateExtension();
    answerQuickPicks(undefined);
    const result = await harness.command<StatusMenuResult>('graphitiMemory.statusMenu');
    expect(result.picked).toBeUndefined();
    expect(testHost().shownMessages).toHaveLength(0);
    updateSettings({});
  });
});
