// The agent-hooks session (issue 11): "Graphiti Memory: Connect Copilot Agent and Claude Code"
// installs the bundled hook runner; VS Code reads the hook file it wrote and resolves its commands
// for a chat request; run as Copilot's agent loop runs hooks (`@hooks`, see copilot-hook-path.js),
// the runner recalls what the extension stored and its <graphiti_memory> block reaches the prompt
// the scripted model receives. Disconnect removes the hook again.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const vscode = require('vscode');
const { assert, control, waitFor, runTests, emulatorUrl } = require('./harness.js');
const { setSetting, receivedPrompts, nextPrompt, grantConsent, writes, isSearchRequest, MODEL } = require('./memory-helpers.js');

const COPILOT_HOOKS_FILE = path.join(os.homedir(), '.copilot', 'hooks', 'graphiti-memory.json');
const CLAUDE_SETTINGS = path.join(os.homedir(), '.claude', 'settings.json');
const FACT = 'We deploy the billing API with Fly.io.';

async function askHooks(prompt) {
  const before = (await receivedPrompts()).length;
  const requestsBefore = (await vscode.commands.executeCommand('graphitiE2e.hookRequests')).length;
  await vscode.commands.executeCommand('workbench.action.chat.open', { query: `@hooks ${prompt}`, isPartialQuery: false, mode: 'ask', modelSelector: MODEL });
  const received = await nextPrompt(before, 45_000);
  const requests = (await vscode.commands.executeCommand('graphitiE2e.hookRequests')).slice(requestsBefore);
  const request = requests.find((entry) => entry.event === 'UserPromptSubmit');
  assert.ok(request, '@hooks did not record its request');
  return { prompt: received, request };
}

function ourCommands(request, event) {
  return (request.hooks?.[event] ?? []).map((hook) => hook.command).filter((command) => command.includes('--installed-by vscode'));
}

const tests = [
  {
    name: '11a Connect asks first, naming the endpoint and what is sent, then installs the bundled runner',
    fn: async () => {
      await setSetting('recall.enabled', true);
      await setSetting('enabled', true);
      await grantConsent();
      assert.equal(fs.existsSync(COPILOT_HOOKS_FILE), false, 'a hook file existed before Connect');
      await control('POST /ui/run-command', { title: 'Graphiti Memory: Connect Copilot Agent and Claude Code' });
      await control('POST /ui/text', { selector: '.monaco-dialog-box', state: 'visible', timeoutMs: 15_000 });
      const { texts } = await control('POST /ui/text', { selector: '.monaco-dialog-box' });
      const dialog = texts.join(' ');
      assert.ok(dialog.includes(emulatorUrl), `the dialog does not name the endpoint: ${dialog}`);
      assert.match(dialog, /prompts/i);
      assert.match(dialog, /transcripts/i);
      await control('POST /ui/click-button', { name: 'Connect', exact: true });
      const file = await waitFor('the Copilot hooks file', async () => fs.existsSync(COPILOT_HOOKS_FILE) && JSON.parse(fs.readFileSync(COPILOT_HOOKS_FILE, 'utf8')), 20_000);
      const command = file.hooks.userPromptSubmitted[0].command;
      assert.ok(command.includes('hook-runner.cjs'), `the hook does not run the bundled runner: ${command}`);
      assert.ok(path.isAbsolute(command.split(' ').find((word) => word.endsWith('hook-runner.cjs')).replace(/'/g, '')), command);
      assert.ok(fs.existsSync(CLAUDE_SETTINGS), 'Claude Code settings were not written');
      for (const written of [COPILOT_HOOKS_FILE, CLAUDE_SETTINGS]) assert.doesNotMatch(fs.readFileSync(written, 'utf8'), /api[-_]?key/i);
      const status = await vscode.commands.executeCommand('graphitiMemory.showStatus');
      assert.deepEqual(status.agents, ['Copilot agent mode', 'Claude Code']);
    },
  },
  {
    name: '11b a hook VS Code resolved from that file recalls what the extension stored into the model prompt',
    fn: async () => {
      await control('POST /emulator/reset');
      const promoted = await vscode.commands.executeCommand('graphitiMemory.promote', { kind: 'decision', scope: 'workspace', text: FACT });
      assert.equal(promoted?.ok, true, `promote: ${JSON.stringify(promoted)}`);
      await waitFor('the decision to be stored in Graphiti', async () =>
        (await control('GET /emulator/episodes')).some((episode) => /Fly\.io/.test(episode.content)),
        30_000,
      );
      // The episode is processed (facts extracted) shortly after it is stored.
      const { prompt, request } = await waitFor(
        'a prompt with the recalled decision',
        async () => {
          const asked = await askHooks('How do we deploy the billing API?');
          return /<graphiti_memory>[\s\S]*Fly\.io[\s\S]*<\/graphiti_memory>/.test(asked.prompt) ? asked : undefined;
        },
        60_000,
        1_000,
      ).catch(async (error) => {
        const last = (await vscode.commands.executeCommand('graphitiE2e.hookRequests')).at(-1);
        throw new Error(`${error.message}; last @hooks request: ${JSON.stringify(last)}; last prompt: ${(await receivedPrompts()).at(-1)}`);
      });
      assert.equal(ourCommands(request, 'UserPromptSubmit').length, 1, `VS Code did not resolve our UserPromptSubmit hook: ${JSON.stringify(request.hooks)}`);
      assert.ok(request.runs.every((run) => run.exitCode === 0), `a hook failed: ${JSON.stringify(request.runs)}`);
      assert.match(prompt, /Additional instructions from hooks: [\s\S]*<graphiti_memory>/);
      const searches = (await control('GET /emulator/requests')).filter(isSearchRequest);
      assert.ok(searches.length >= 1, 'the hook never searched Graphiti');
    },
  },
  {
    name: '11c the Stop hook stores finished turns from Copilot\'s session transcript, each once',
    fn: async () => {
      await control('POST /emulator/reset');
      const sentMessages = async () =>
        writes(await control('GET /emulator/requests')).flatMap((write) => write.messages.map((message) => ({ ...message, group: write.group_id })));
      // The user message with `pattern`, and the assistant message of the same turn (same name stem, same group).
      const arrived = (pattern) => async () => {
        const messages = await sentMessages();
        const user = messages.filter((message) => message.role_type === 'user' && pattern.test(message.content));
        const stem = (message) => `${message.group} ${String(message.name).replace(/\.[^.]*$/, '')}`;
        const answered = user.filter((question) =>
          messages.some((message) => message.role_type === 'assistant' && stem(message) === stem(question) && /Scripted answer/.test(message.content)),
        );
        return answered.length > 0 ? user : undefined;
      };
      const explain = async (error) => {
        const requests = (await control('GET /emulator/requests')).map((entry) => `${entry.method} ${entry.path} ${entry.status}`);
        const stops = (await vscode.commands.executeCommand('graphitiE2e.hookRequests')).filter((entry) => entry.event === 'Stop');
        throw new Error(`${error.message}; emulator saw: ${requests.join(', ')}; last Stop: ${JSON.stringify(stops.at(-1))}`);
      };
      await askHooks('Our staging database is called mercury.');
      await waitFor('the first @hooks turn to reach Graphiti as a user and an assistant message', arrived(/mercury/), 45_000, 500).catch(explain);
      // A second turn of the same session: its Stop reads the whole transcript again.
      await askHooks('Our production database is called venus.');
      await waitFor('the second turn to reach Graphiti', arrived(/venus/), 45_000, 500).catch(explain);
      const perGroup = new Map();
      for (const message of (await sentMessages()).filter((entry) => entry.role_type === 'user' && /mercury/.test(entry.content))) {
        perGroup.set(message.group, (perGroup.get(message.group) ?? 0) + 1);
      }
      for (const [group, count] of perGroup) assert.equal(count, 1, `the first turn was sent ${count} times to ${group}`);
    },
  },
  {
    name: '11d Disconnect: the runner sends nothing at once, and VS Code stops resolving the hook',
    fn: async () => {
      await control('POST /ui/run-command', { title: 'Graphiti Memory: Disconnect Copilot Agent and Claude Code' });
      await control('POST /ui/click-button', { name: 'Disconnect', exact: true });
      await waitFor('the Copilot hooks file to go', async () => !fs.existsSync(COPILOT_HOOKS_FILE), 20_000);
      await control('POST /emulator/reset');
      // VS Code notices the removed file a little later; until then the hook may still run, and the
      // runner, with the consent gone from the user config, sends and prints nothing.
      const first = await askHooks('Which region hosts the billing API?');
      assert.doesNotMatch(first.prompt, /graphiti_memory/);
      const stillResolved = await waitFor(
        'VS Code to stop resolving our hook',
        async () => {
          const asked = await askHooks('Which region hosts the billing API?');
          return ourCommands(asked.request, 'UserPromptSubmit').length === 0 ? asked : undefined;
        },
        30_000,
        1_000,
      );
      assert.doesNotMatch(stillResolved.prompt, /graphiti_memory/);
      const requests = await control('GET /emulator/requests');
      assert.deepEqual(requests.filter(isSearchRequest), [], 'a search reached Graphiti after Disconnect');
      const sent = writes(requests).flatMap((write) => write.messages);
      assert.equal(sent.filter((message) => /billing API/.test(message.content) && /region/.test(message.content)).length, 0, 'a turn was stored after Disconnect');
    },
  },
];

exports.run = () => runTests(tests);
