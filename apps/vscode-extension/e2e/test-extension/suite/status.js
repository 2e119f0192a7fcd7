// Issue 23 in the real VS Code: what the status item says and offers in each state, recall being
// off said where the user looks, the status recovering by itself when Graphiti answers again,
// Disable, forget after a revoke, and the trust prompt for a project config file (issue 20).
const fs = require('node:fs');
const path = require('node:path');
const crypto = require('node:crypto');
const vscode = require('vscode');
const { assert, control, waitFor, sleep, runTests, emulatorUrl } = require('./harness.js');
const { submitChat, newChatSession, grantConsent, isDeleteRequest, isSearchRequest, writes } = require('./memory-helpers.js');

const EXTENSION_ID = 'graphiti-memory.graphiti-memory';
const ROW = '.quick-input-list .monaco-list-row';

/** The state folder every tool shares (the e2e home's data folder: no variable moves it here). */
function stateDirectory() {
  return path.join(process.env.XDG_DATA_HOME, 'graphiti-harness');
}

function workspaceFolder() {
  return vscode.workspace.workspaceFolders[0].uri.fsPath;
}

async function statusBarText() {
  const { texts } = await control('POST /ui/text', { selector: '.statusbar-item' });
  return texts.find((text) => /Memory:/.test(text)) ?? texts.join(' | ');
}

async function statusBarShows(pattern, timeoutMs = 20_000) {
  return waitFor(`the status item to show ${pattern}`, async () => {
    const text = await statusBarText();
    return pattern.test(text) ? text : undefined;
  }, timeoutMs, 250);
}

/** Clicks the status item as a user would and returns the quick pick's rows (label + detail). */
async function openStatusMenu() {
  await control('POST /ui/click', { selector: '.statusbar-item', hasText: 'Memory:' });
  await control('POST /ui/text', { selector: ROW, state: 'visible', timeoutMs: 10_000 });
  await sleep(300);
  return quickPickLabels();
}

/** The labels of the quick pick's rows (the first line of each row: its codicon renders no text). */
async function quickPickLabels() {
  const { texts } = await control('POST /ui/text', { selector: ROW });
  return texts.map((text) => text.split('\n')[0].trim());
}

async function closeQuickPick() {
  await control('POST /ui/press', { key: 'Escape' });
  await sleep(300);
}

async function dialogText() {
  await control('POST /ui/text', { selector: '.monaco-dialog-box', state: 'visible', timeoutMs: 15_000 });
  const { texts } = await control('POST /ui/text', { selector: '.monaco-dialog-box' });
  return texts.join(' ');
}

async function notificationMatching(pattern, timeoutMs = 15_000) {
  return waitFor(`a notification matching ${pattern}`, async () => {
    const { texts } = await control('POST /ui/text', { selector: '.notification-list-item-message' });
    return texts.find((text) => pattern.test(text));
  }, timeoutMs, 250);
}

async function lastChatResponse() {
  const { texts } = await control('POST /ui/text', { selector: '.interactive-item-container.interactive-response', timeoutMs: 1_000 });
  return texts.at(-1) ?? '';
}

const tests = [
  {
    name: 'S1 the project file trust prompt names the ignored keys; trusting records the trust the hooks read',
    fn: async () => {
      const extension = vscode.extensions.getExtension(EXTENSION_ID);
      assert.ok(extension, `${EXTENSION_ID} is not installed`);
      await extension.activate();
      const file = path.join(workspaceFolder(), '.graphiti-memory.json');
      const content = `${JSON.stringify({ groupIdStrategy: 'raw', recall: { maxFacts: 5 } }, null, 2)}\n`;
      fs.writeFileSync(file, content);
      // The file watcher reads it again, and the question comes once for this content.
      void vscode.commands.executeCommand('graphitiMemory.reviewProjectFileTrust');
      const question = await notificationMatching(/Trust this file\?/);
      assert.match(question, /groupIdStrategy/, `the question does not name the ignored key: ${question}`);
      assert.doesNotMatch(question, /recall\.maxFacts/, 'a key that only narrows was asked about');
      await control('POST /ui/screenshot', { name: 'status-trust-prompt' });
      await control('POST /ui/click-button', { name: 'Trust This File', exact: true });
      const trustFile = path.join(stateDirectory(), 'trusted-project-files.json');
      const trusted = await waitFor('the trust store to name the file', async () => {
        if (!fs.existsSync(trustFile)) return undefined;
        return JSON.parse(fs.readFileSync(trustFile, 'utf8')).files?.[file];
      });
      // The same record as `graphiti-harness config trust`: the file's path and the sha256 of its content.
      assert.equal(trusted, crypto.createHash('sha256').update(content).digest('hex'));
      // The prompt reads the configuration again right after it records the trust; the trust file can
      // be seen a moment before that, so wait for the key to leave its default.
      const status = await waitFor('Show Status to read the trusted file again', async () => {
        const current = await vscode.commands.executeCommand('graphitiMemory.showStatus');
        return current.configuration.settings.find((setting) => setting.key === 'groupIdStrategy')?.origin === 'default' ? undefined : current;
      });
      const strategy = status.configuration.settings.find((setting) => setting.key === 'groupIdStrategy');
      assert.deepEqual([strategy.value, strategy.origin], ['raw', 'project'], JSON.stringify(strategy));
      assert.deepEqual(status.configuration.ignored, [], JSON.stringify(status.configuration.ignored));
      // Back to what the rest of the session expects; an edit makes the trust lapse anyway.
      fs.rmSync(file);
    },
  },
  {
    name: 'S2 off: the status item says so, and its menu offers Enable Here first; consent\'s default recalls, storing only beside it',
    fn: async () => {
      await control('POST /emulator/reset');
      await statusBarShows(/Memory: off/);
      const items = await openStatusMenu();
      assert.equal(items[0], 'Enable Here', `menu: ${items.join(' | ')}`);
      for (const label of ['Open Settings', 'Test Connection', 'Show What Was Sent']) assert.ok(items.includes(label), `menu lacks ${label}: ${items.join(' | ')}`);
      await control('POST /ui/screenshot', { name: 'status-menu-off' });
      await control('POST /ui/pick', { label: 'Enable Here' });
      const text = await dialogText();
      assert.ok(text.includes(emulatorUrl), `the consent dialog does not name the endpoint: ${text}`);
      assert.match(text, /recall it into answers/, `the consent dialog does not say "Allow" recalls: ${text}`);
      const { texts: buttons } = await control('POST /ui/text', { selector: '.monaco-dialog-box .monaco-button' });
      // The default (first) choice makes memory work; storing only is offered beside it.
      assert.ok(buttons.some((button) => button.trim() === 'Allow'), `buttons: ${buttons.join(' | ')}`);
      assert.ok(buttons.some((button) => /Store Only \(No Recall\)/.test(button)), `buttons: ${buttons.join(' | ')}`);
      await control('POST /ui/screenshot', { name: 'status-consent-dialog' });
      // This session goes on with recall off (S3 says so in chat and turns it on): store only.
      await control('POST /ui/click-button', { name: 'Store Only (No Recall)', exact: true });
      const on = await statusBarShows(/Memory: on/);
      assert.doesNotMatch(on, /queued|dead|Error/);
    },
  },
  {
    name: 'S3 recall off is said in /recall, the @memory footer and the menu; Turn Recall On turns it on',
    fn: async () => {
      await newChatSession();
      await submitChat('@memory /recall how do we deploy?');
      // Read once the answer has rendered its button too: the first words come before the rest of it.
      let seen = '';
      const answer = await waitFor('the /recall answer saying recall is off, with its Turn Recall On button', async () => {
        seen = await lastChatResponse();
        return /Recall is off/.test(seen) && /Turn Recall On/.test(seen) ? seen : undefined;
      }).catch((error) => {
        throw new Error(`${error.message}; the answer read: ${seen}`);
      });
      assert.doesNotMatch(answer, /holds no facts/);
      await control('POST /ui/screenshot', { name: 'status-recall-off-in-chat' });
      await newChatSession();
      await submitChat('@memory Which CI do we use?');
      const footer = await waitFor('the @memory footer', async () => {
        const text = await lastChatResponse();
        return /Memory recall is off/.test(text) ? text : undefined;
      });
      assert.match(footer, /Scripted answer/);
      const status = await vscode.commands.executeCommand('graphitiMemory.showStatus');
      assert.match(status.summary, /Recall is off/);
      const items = await openStatusMenu();
      assert.ok(items.includes('Turn Recall On'), `menu: ${items.join(' | ')}`);
      await control('POST /ui/pick', { label: 'Turn Recall On' });
      // Recall sends questions: consent for that is asked by name.
      const text = await dialogText();
      assert.match(text, /also send/i, text);
      await control('POST /ui/click-button', { name: 'Allow', exact: true });
      await waitFor('recall on', async () => vscode.workspace.getConfiguration('graphitiMemory').get('recall.enabled') === true);
      const after = await vscode.commands.executeCommand('graphitiMemory.showStatus');
      assert.doesNotMatch(after.summary, /Recall is off/);
      // Asked once: after "recall is on", no second dialog (the setting's change found nothing left to ask).
      await waitFor('"recall is on" said', async () => {
        const { texts } = await control('POST /ui/text', { selector: '.notification-list-item-message' });
        return texts.some((notice) => /recall is on/.test(notice));
      });
      await sleep(2_000);
      const { texts: dialogs } = await control('POST /ui/text', { selector: '.monaco-dialog-box', timeoutMs: 1_000 });
      assert.deepEqual(dialogs, [], `a second dialog after recall is on: ${dialogs.join(' | ')}`);
    },
  },
  {
    name: 'S4 Graphiti unreachable: the item says so, its menu offers Test Connection first; it returns to on by itself',
    fn: async () => {
      await control('POST /emulator/faults', { '*': { resetRate: 1 } });
      let restored = false;
      try {
        const token = new vscode.CancellationTokenSource().token;
        await vscode.lm.invokeTool('graphiti_memory_search', { input: { query: 'how do we deploy?' }, toolInvocationToken: undefined }, token);
        const failing = await statusBarShows(/can't reach Graphiti/);
        assert.doesNotMatch(failing, /Error|failing/, `class names or internal words in the item: ${failing}`);
        const items = await openStatusMenu();
        assert.equal(items[0], 'Test Connection', `menu: ${items.join(' | ')}`);
        await control('POST /ui/screenshot', { name: 'status-menu-failing' });
        await closeQuickPick();
        // The server is back: no command, no chat turn, no refresh.
        await control('POST /emulator/faults', {});
        restored = true;
        await statusBarShows(/Memory: on/, 30_000);
        const { texts } = await control('POST /ui/text', { selector: '.statusbar-item' });
        assert.ok(!texts.some((text) => /can't reach/.test(text)));
      } finally {
        if (!restored) await control('POST /emulator/faults', {});
      }
    },
  },
  {
    name: 'S5 Revoke Consent: "off — consent revoked", not a to-do; forgetting still works after naming the server',
    fn: async () => {
      await vscode.commands.executeCommand('graphitiMemory.promote', { kind: 'decision', scope: 'workspace', text: 'We release on Tuesdays.' });
      // This window's workspace group (private to its user key: other sessions' episodes live in their own groups).
      const promoted = async () => (await control('GET /emulator/episodes')).filter((episode) => String(episode.content ?? '').includes('We release on Tuesdays'));
      const groups = new Set((await waitFor('the promotion stored', async () => ((await promoted()).length > 0 ? promoted() : undefined), 30_000, 500)).map((episode) => episode.group_id));
      await vscode.commands.executeCommand('graphitiMemory.revokeConsent');
      await statusBarShows(/Memory: off — consent revoked/);
      const items = await openStatusMenu();
      assert.equal(items[0], 'Give Consent', `menu: ${items.join(' | ')}`);
      assert.ok(items.includes('Forget Workspace Memory'), `menu: ${items.join(' | ')}`);
      await control('POST /ui/screenshot', { name: 'status-menu-revoked' });
      await control('POST /ui/pick', { label: 'Forget Workspace Memory' });
      const text = await dialogText();
      assert.ok(text.includes(emulatorUrl), `the forget dialog does not name the server: ${text}`);
      assert.match(text, /only to delete/, text);
      const before = (await control('GET /emulator/requests')).length;
      await control('POST /ui/click-button', { name: 'Forget', exact: true });
      await waitFor('the workspace memory deleted', async () => !(await control('GET /emulator/episodes')).some((episode) => groups.has(episode.group_id)), 30_000, 500);
      const after = (await control('GET /emulator/requests')).slice(before);
      assert.ok(after.some(isDeleteRequest), 'no delete reached the emulator');
      assert.ok(writes(after).length === 0 && !after.some(isSearchRequest), 'content left after the revoke');
      await grantConsent();
      await statusBarShows(/Memory: on/);
    },
  },
  {
    name: 'S6 Disable in this workspace turns memory off here and marks the shared switches for the hooks',
    fn: async () => {
      void vscode.commands.executeCommand('graphitiMemory.disable');
      await control('POST /ui/text', { selector: ROW, state: 'visible', timeoutMs: 10_000 });
      await sleep(300);
      assert.deepEqual(await quickPickLabels(), ['In This Workspace', 'Everywhere']);
      await control('POST /ui/pick', { label: 'In This Workspace' });
      await statusBarShows(/Memory: off/);
      const values = vscode.workspace.getConfiguration('graphitiMemory').inspect('enabled');
      assert.equal(values.workspaceValue, false, JSON.stringify(values));
      assert.notEqual(values.globalValue, false, 'the user setting was changed too');
      const switchesFile = path.join(stateDirectory(), 'memory-switches.json');
      const switches = await waitFor('the workspace marked off in the memory switches', async () => {
        if (!fs.existsSync(switchesFile)) return undefined;
        const record = JSON.parse(fs.readFileSync(switchesFile, 'utf8'));
        return Object.entries(record.workspaces ?? {}).some(([folder, marks]) => path.resolve(folder) === path.resolve(workspaceFolder()) && marks.off) ? record : undefined;
      });
      assert.equal(switches.everywhere?.off, undefined, 'memory was switched off everywhere');
      await control('POST /ui/screenshot', { name: 'status-disabled' });
    },
  },
];

exports.run = () => runTests(tests);
