// The trusted-workspace session: consent, Test Connection, @memory with recall across sessions, a
// hanging Graphiti, the language-model tools and capture of another participant's chat.
const vscode = require('vscode');
const { assert, control, waitFor, sleep, runTests, emulatorUrl } = require('./harness.js');
const {
  setSetting,
  networkRequests,
  sentWrites,
  isHealthRequest,
  receivedPrompts,
  submitChat,
  newChatSession,
  nextPrompt,
  episodeNames,
  grantConsent,
} = require('./memory-helpers.js');
const { answerCategoryDialog, forgetWorkspace } = require('./trust.js');

/** The text of every endpoint's record of delivered episodes in the shared state folder (env-paths' data folder on Linux). */
function recordedEpisodes() {
  const fs = require('node:fs');
  const path = require('node:path');
  const os = require('node:os');
  const state = process.env.GRAPHITI_MEMORY_STATE_DIR ?? path.join(process.env.XDG_DATA_HOME ?? path.join(os.homedir(), '.local', 'share'), 'graphiti-harness');
  const endpoints = path.join(state, 'endpoints');
  if (!fs.existsSync(endpoints)) return '';
  return fs
    .readdirSync(endpoints)
    .map((folder) => path.join(endpoints, folder, 'episode-sources.json'))
    .filter((file) => fs.existsSync(file))
    .map((file) => fs.readFileSync(file, 'utf8'))
    .join('\n');
}

const EXTENSION_ID = 'graphiti-memory.graphiti-memory';
const TURN_NAME = /^graphiti-memory\.turn\..+\.(user|assistant)$/;
const RECALL_DEADLINE_MS = 750;

async function statusBarText() {
  const { texts } = await control('POST /ui/text', { selector: '.statusbar-item' });
  return texts.find((text) => /memory/i.test(text)) ?? texts.join(' | ');
}

const tests = [
  {
    name: '1a the packaged VSIX is installed and activates',
    fn: async () => {
      const extension = vscode.extensions.getExtension(EXTENSION_ID);
      assert.ok(extension, `${EXTENSION_ID} is not installed`);
      await extension.activate();
      assert.equal(extension.isActive, true);
      const commands = await vscode.commands.getCommands(true);
      for (const id of ['graphitiMemory.testConnection', 'graphitiMemory.promote', 'graphitiMemory.showStatus']) {
        assert.ok(commands.includes(id), `command ${id} is not registered`);
      }
    },
  },
  {
    name: '2a enabling asks for consent; declining sends nothing',
    fn: async () => {
      await control('POST /emulator/reset');
      await setSetting('enabled', true);
      await control('POST /ui/text', { selector: '.monaco-dialog-box', state: 'visible', timeoutMs: 15_000 });
      const { texts } = await control('POST /ui/text', { selector: '.monaco-dialog-box' });
      assert.ok(texts.join(' ').includes(emulatorUrl), `the consent dialog does not name the endpoint: ${texts.join(' ')}`);
      await control('POST /ui/click-button', { name: 'Cancel', exact: true });
      // A chat turn after declining must not reach Graphiti either.
      const before = (await receivedPrompts()).length;
      await submitChat('@memory Our release branch is called trunk.');
      await nextPrompt(before);
      await sleep(3_000);
      assert.deepEqual(await networkRequests(), [], 'requests reached the emulator without consent');
    },
  },
  {
    name: '2b accepting consent allows traffic',
    fn: async () => {
      const pending = vscode.commands.executeCommand('graphitiMemory.enable');
      await control('POST /ui/click-button', { name: 'Allow', exact: true });
      await pending;
      const status = await vscode.commands.executeCommand('graphitiMemory.showStatus');
      assert.notEqual(status?.state, 'needs-consent', `status after consent: ${JSON.stringify(status)}`);
    },
  },
  {
    name: '1b Test Connection from the command palette reports the emulator healthy',
    fn: async () => {
      await control('POST /ui/run-command', { title: 'Graphiti Memory: Test Connection' });
      await control('POST /ui/pick', { label: 'health' });
      const notification = await waitFor('a Test Connection notification', async () => {
        const { texts } = await control('POST /ui/text', { selector: '.notification-list-item-message' });
        return texts.find((text) => /healthy|reachable/i.test(text));
      });
      assert.match(notification, /healthy/i);
      const result = await vscode.commands.executeCommand('graphitiMemory.testConnection', 'health');
      assert.equal(result?.ok, true, JSON.stringify(result));
      assert.ok((await networkRequests()).some(isHealthRequest));
    },
  },
  {
    name: '1c Test Connection reports an unreachable endpoint clearly',
    fn: async () => {
      await setSetting('endpoint', 'http://127.0.0.1:9');
      try {
        // A new endpoint needs its own consent: the dialog names it, and this test declines.
        await control('POST /ui/text', { selector: '.monaco-dialog-box', state: 'visible', timeoutMs: 15_000 });
        const { texts } = await control('POST /ui/text', { selector: '.monaco-dialog-box' });
        assert.match(texts.join(' '), /127\.0\.0\.1:9/, `the consent dialog does not name the new endpoint: ${texts.join(' ')}`);
        await control('POST /ui/click-button', { name: 'Cancel', exact: true });
        const result = await waitFor('the endpoint change to apply', async () => {
          const outcome = await vscode.commands.executeCommand('graphitiMemory.testConnection', 'health');
          return outcome?.ok === false ? outcome : undefined;
        });
        assert.match(result.message, /127\.0\.0\.1:9/, `the failure does not name the URL: ${result.message}`);
      } finally {
        await setSetting('endpoint', emulatorUrl);
        // A changed endpoint needs consent again; give it for the emulator once more.
        await grantConsent();
      }
    },
  },
  {
    name: '3 @memory answers, ingests the turn, and recalls it in a later session',
    fn: async () => {
      await control('POST /emulator/reset');
      // This test follows one turn's user and assistant episodes: per-message capture. (By default a
      // session goes as one digest, sent at idle; core's and the hooks' tests cover digests.)
      await setSetting('capture.granularity', 'turn');
      // The consent dialog's default choice ("Allow", 2b) made memory work: recall is on already, with
      // consent to send questions as searches (no second dialog).
      assert.equal(vscode.workspace.getConfiguration('graphitiMemory').get('recall.enabled'), true, 'recall is not on after "Allow"');
      let before = (await receivedPrompts()).length;
      await submitChat('@memory We deploy the billing API with Fly.io.');
      await nextPrompt(before);
      const episodes = await waitFor(
        'the turn to be stored as a user and an assistant episode',
        async () => {
          const turnEpisodes = (await control('GET /emulator/episodes')).filter((episode) => TURN_NAME.test(episode.name));
          const roles = new Set(turnEpisodes.map((episode) => episode.name.split('.').pop()));
          return roles.has('user') && roles.has('assistant') ? turnEpisodes : undefined;
        },
        30_000,
      );
      const userEpisode = episodes.find((episode) => episode.name.endsWith('.user'));
      assert.match(userEpisode.content, /Fly\.io/);
      const messages = await sentWrites();
      assert.ok(messages.length >= 1);
      for (const write of messages) {
        for (const message of write.messages) {
          assert.equal('uuid' in message, false, 'a message was sent with a uuid');
          assert.match(message.name, TURN_NAME);
        }
      }

      // Delivery confirmation records each episode it found under its uuid: what citations are made from.
      await waitFor('delivery confirmation to record the episode', () => recordedEpisodes().includes(userEpisode.uuid), 15_000);

      await newChatSession();
      before = (await receivedPrompts()).length;
      await submitChat('@memory How do we deploy the billing API?');
      const prompt = await nextPrompt(before);
      assert.match(prompt, /<graphiti_memory>/, 'the prompt has no memory block');
      assert.match(prompt, /<graphiti_memory>[\s\S]*Fly\.io[\s\S]*<\/graphiti_memory>/, 'the recalled fact is not in the block');
      // The fact cites where it came from: this chat, the day it was said.
      assert.match(prompt, /Fly\.io[^\n]*\(VS Code chat, \d{4}-\d{2}-\d{2}\)/, 'the recalled fact does not cite its source');
      await sleep(1_000);
      await control('POST /ui/screenshot', { name: 'chat-answer-with-memory' });
    },
  },
  {
    name: "3b graphitiMemory.filter's per-kind modes reach @memory's own answers",
    fn: async () => {
      await control('POST /emulator/reset');
      await setSetting('capture.granularity', 'turn');
      // The object form, as a user writes it in settings.json: prompts kept, answers left out.
      await setSetting('filter', { preset: 'compact', assistant: 'omit' });
      try {
        assert.deepEqual(vscode.workspace.getConfiguration('graphitiMemory').get('filter'), { preset: 'compact', assistant: 'omit' });
        await newChatSession();
        const before = (await receivedPrompts()).length;
        await submitChat('@memory The nightly backup runs at 02:00 UTC.');
        await nextPrompt(before);
        const user = await waitFor(
          'the prompt to reach Graphiti',
          async () => (await sentWrites()).flatMap((write) => write.messages).find((message) => message.role_type === 'user' && message.content.includes('02:00 UTC')),
          30_000,
        );
        // A turn's messages go out together: had the answer been kept, it would be here by now.
        await sleep(1_000);
        const answers = (await sentWrites()).flatMap((write) => write.messages).filter((message) => message.name === user.name.replace(/\.user$/, '.assistant'));
        assert.equal(answers.length, 0, 'the answer was sent although graphitiMemory.filter omits answers');
      } finally {
        await setSetting('filter', undefined);
      }
    },
  },
  {
    name: '4 a hanging Graphiti never holds up a chat turn, and the status bar shows the failure',
    fn: async () => {
      await control('POST /emulator/faults', { '*': { hangRate: 1 } });
      try {
        const before = (await receivedPrompts()).length;
        const started = Date.now();
        await submitChat('@memory Which CI provider do we use?');
        await nextPrompt(before);
        const elapsed = Date.now() - started;
        assert.ok(elapsed < RECALL_DEADLINE_MS + 2_500, `the turn waited ${elapsed} ms for a hanging Graphiti`);
        const text = await waitFor(
          'the status bar to show the failure',
          async () => {
            const current = await statusBarText();
            return /can't reach|fail|error|unreachable|warning/i.test(current) ? current : undefined;
          },
          45_000,
          500,
        );
        assert.ok(text);
        await control('POST /ui/screenshot', { name: 'status-bar-failing' });
      } finally {
        await control('POST /emulator/faults', {});
      }
    },
  },
  {
    name: '5 the language-model tools are registered and work',
    fn: async () => {
      // With review on (the default) remember keeps the memory pending; this test covers the direct path.
      await setSetting('autoPromote.review', false);
      const names = vscode.lm.tools.map((tool) => tool.name);
      assert.ok(names.includes('graphiti_memory_search'), `tools: ${names.join(', ')}`);
      assert.ok(names.includes('graphiti_memory_remember'), `tools: ${names.join(', ')}`);
      const token = new vscode.CancellationTokenSource().token;
      const search = await vscode.lm.invokeTool('graphiti_memory_search', { input: { query: 'How do we deploy the billing API?' }, toolInvocationToken: undefined }, token);
      const searchText = search.content.map((part) => part.value ?? '').join('');
      assert.match(searchText, /Fly\.io/, `search result: ${searchText}`);

      await control('POST /emulator/reset');
      const remember = vscode.lm.invokeTool(
        'graphiti_memory_remember',
        { input: { kind: 'decision', scope: 'workspace', content: 'We adopt zod for validation.' }, toolInvocationToken: undefined },
        token,
      );
      // Remember asks first: the confirmation must be visible before anything is written.
      const confirmation = await control('POST /ui/text', { selector: '.monaco-dialog-box, .chat-confirmation-widget', state: 'visible', timeoutMs: 15_000 });
      assert.match(confirmation.texts.join(' '), /zod/, 'the confirmation does not show what will be stored');
      assert.equal((await sentWrites()).length, 0, 'remember wrote before confirmation');
      await control('POST /ui/click-button', { pattern: '^(Yes|Continue|Allow|Remember)$' });
      await remember;
      await waitFor('the promoted memory to reach Graphiti', async () =>
        (await sentWrites()).find((write) =>
          write.messages.some((message) => message.role_type === 'system' && /graphiti_episode kind="decision"/.test(message.content)),
        ),
      );
    },
  },
  {
    name: '5b after Forget Workspace Memory the next request of the same @memory chat carries nothing forgotten',
    fn: async () => {
      await control('POST /emulator/reset');
      await newChatSession();
      let before = (await receivedPrompts()).length;
      await submitChat('@memory Our invoices are rendered with Typst.');
      await nextPrompt(before);
      await waitFor(
        'the turn about Typst to be stored',
        async () => (await control('GET /emulator/episodes')).some((episode) => TURN_NAME.test(episode.name) && /Typst/.test(episode.content)),
        30_000,
        500,
      );
      // Another chat is given the fact by recall; this is the chat that goes on after the forget.
      await newChatSession();
      before = (await receivedPrompts()).length;
      await submitChat('@memory How are invoices rendered?');
      const given = await nextPrompt(before);
      assert.match(given, /<graphiti_memory>[\s\S]*Typst[\s\S]*<\/graphiti_memory>/, 'the chat was not given the fact before the forget');
      // Its turns are captured before the forget, as they would be minutes apart.
      await waitFor(
        'the question to be stored',
        async () => (await control('GET /emulator/episodes')).some((episode) => /How are invoices rendered/.test(episode.content)),
        30_000,
        500,
      );
      const pending = vscode.commands.executeCommand('graphitiMemory.forgetWorkspace');
      await control('POST /ui/text', { selector: '.monaco-dialog-box', state: 'visible', timeoutMs: 15_000 });
      await control('POST /ui/click-button', { name: 'Forget', exact: true });
      const result = await pending;
      assert.equal(result?.ok, true, JSON.stringify(result));
      // The same chat, one more request: the scripted model sees everything it is sent.
      before = (await receivedPrompts()).length;
      await submitChat('@memory Who maintains them?');
      const after = await nextPrompt(before);
      assert.match(after, /How are invoices rendered\?/, 'the request is not of the same chat (its history is missing)');
      assert.doesNotMatch(after, /Typst/, `the request after the forget still carries the forgotten fact:\n${after}`);
      assert.doesNotMatch(after, /<graphiti_memory>/, 'the request after the forget still carries a memory block');
    },
  },
  {
    name: "7 turning on capture.vscodeChat after consent asks again; then another participant's turn is ingested once",
    fn: async () => {
      await control('POST /emulator/reset');
      await setSetting('capture.vscodeChat', true);
      await answerCategoryDialog(/other chats of this workspace/);
      await newChatSession();
      await submitChat('@echo The staging database runs Postgres 16.');
      const found = await waitFor(
        'the @echo turn to reach the emulator as user + assistant messages',
        async () => {
          const sent = (await sentWrites()).flatMap((write) => write.messages);
          const user = sent.filter((message) => message.role_type === 'user' && message.content.includes('Postgres 16'));
          const assistant = sent.filter((message) => message.role_type === 'assistant' && message.content.includes('Echo participant heard'));
          return user.length > 0 && assistant.length > 0 ? { user, assistant } : undefined;
        },
        60_000,
        500,
      );
      // Later polls and saves of the same chat must not send the turn again.
      await sleep(5_000);
      const byGroup = new Map();
      for (const write of await sentWrites()) {
        for (const message of write.messages) {
          const role =
            message.role_type === 'user' && message.content.includes('Postgres 16')
              ? 'user'
              : message.role_type === 'assistant' && message.content.includes('Echo participant heard')
                ? 'assistant'
                : undefined;
          if (role === undefined) continue;
          const counts = byGroup.get(write.group_id) ?? { user: 0, assistant: 0 };
          counts[role] += 1;
          byGroup.set(write.group_id, counts);
        }
      }
      assert.ok(found.user.length > 0 && byGroup.size > 0);
      for (const [group, counts] of byGroup) {
        assert.deepEqual(counts, { user: 1, assistant: 1 }, `group ${group} did not get the turn exactly once`);
      }
      const stored = episodeNames(await control('GET /emulator/episodes')).filter((name) => /\.(user|assistant)$/.test(name));
      assert.ok(stored.length >= 2, `episodes stored: ${stored.join(', ')}`);
    },
  },
  forgetWorkspace,
  {
    name: '8 screenshot of the status bar',
    fn: async () => {
      const { file } = await control('POST /ui/screenshot', { name: 'status-bar' });
      assert.ok(file);
    },
  },
];

exports.run = () => runTests(tests);
