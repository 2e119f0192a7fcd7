// The agent-hooks session: "Graphiti Memory: Connect Copilot Agent and Claude Code" installs the
// bundled hook runner, and Copilot Chat's real agent loop (built into this VS Code, signed out, on
// a scripted local model through its bring-your-own-key Ollama provider, see e2e/lib/model-server.mjs)
// runs it: the UserPromptSubmit hook puts the recalled <graphiti_memory> block into the request the
// model receives, across a tool round, and the Stop hook stores the turn once. Disconnect removes it.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const vscode = require('vscode');
const { assert, control, waitFor, sleep, runTests, emulatorUrl } = require('./harness.js');
const { setSetting, grantConsent, writes, isSearchRequest } = require('./memory-helpers.js');
const { copilotHookRuns, ourRuns, hooksLogFile } = require('./copilot-hooks-log.js');

const COPILOT_HOOKS_FILE = path.join(os.homedir(), '.copilot', 'hooks', 'graphiti-memory.json');
const CLAUDE_SETTINGS = path.join(os.homedir(), '.claude', 'settings.json');
const FACT = 'We deploy the billing API with Fly.io.';
const MEMORY_BLOCK = /<graphiti_memory>[\s\S]*Fly\.io[\s\S]*<\/graphiti_memory>/;
/** How UserPromptSubmit's additionalContext reaches the model (Copilot 0.67's prompt). */
const HOOK_CONTEXT = 'Additional instructions from hooks';
/** The scripted model's answers start so (e2e/lib/model-server.mjs). */
const ANSWER_PREFIX = 'Scripted agent answer:';
/** The Ollama model the runner serves (run.mjs), e.g. `scripted-agent:latest`. */
const OLLAMA_MODEL = process.env.GRAPHITI_E2E_OLLAMA_MODEL ?? '';

/** The model's chat requests, as the scripted server received them (OpenAI bodies). */
async function modelRequests() {
  return control('GET /model/requests');
}

function textOf(message) {
  const content = message?.content;
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((part) => (typeof part === 'string' ? part : (part?.text ?? ''))).join('');
  return '';
}

/** The text of the request's last user message: where Copilot puts the hooks' additional context. */
function lastUserText(body) {
  return textOf((body?.messages ?? []).filter((message) => message.role === 'user').at(-1));
}

/** The agent requests (they offer tools) whose last user message asks `prompt`. */
function agentRequestsFor(requests, prompt) {
  return requests.filter((body) => {
    if (!Array.isArray(body?.tools) || body.tools.length === 0) return false;
    return lastUserText(body).includes(prompt);
  });
}

let selector;
let modelMissing;
/** Waits until Copilot lists the scripted Ollama model (its BYOK provider asked the server). */
async function copilotModel() {
  if (selector) return selector;
  // Once missing, every later test fails at once instead of waiting again.
  if (modelMissing) throw modelMissing;
  const model = await waitFor(
    `Copilot's Ollama provider to list ${OLLAMA_MODEL}`,
    async () => {
      const models = await vscode.lm.selectChatModels({ vendor: 'ollama' });
      return models.find((candidate) => candidate.id.includes(OLLAMA_MODEL) || candidate.name.includes(OLLAMA_MODEL.replace(/:.*$/, '')));
    },
    90_000,
    1_000,
  ).catch(async (error) => {
    const all = await vscode.lm.selectChatModels();
    const copilot = vscode.extensions.getExtension('GitHub.copilot-chat');
    modelMissing = new Error(
      `${error.message}; models listed: ${JSON.stringify(all.map((model) => `${model.vendor}/${model.id}`))}; ` +
        // A disabled extension is not listed at all.
        `Copilot Chat ${copilot ? (copilot.isActive ? 'is active' : 'is not active') : 'is missing or disabled (see keepBuiltinChatEnabled in run.mjs)'}`,
    );
    throw modelMissing;
  });
  selector = { vendor: 'ollama', id: model.id };
  return selector;
}

/**
 * Asks Copilot's agent, as the chat view's agent mode with the scripted model, and waits until the
 * model got the request after the tool round (the loop's last) and the answer shows in the chat.
 */
async function askAgent(prompt, { newSession = false } = {}) {
  const modelSelector = await copilotModel();
  if (newSession) {
    await vscode.commands.executeCommand('workbench.action.chat.newChat');
    await sleep(500);
  }
  const answersBefore = (await answersShown()).length;
  await vscode.commands.executeCommand('workbench.action.chat.open', { mode: 'agent', query: prompt, isPartialQuery: false, modelSelector });
  const requests = await waitFor(
    'the agent loop to send the model the tool result',
    async () => {
      const found = agentRequestsFor(await modelRequests(), prompt);
      return found.some((body) => body.messages.some((message) => message.role === 'tool')) ? found : undefined;
    },
    90_000,
    250,
  ).catch(async (error) => {
    const all = await modelRequests().catch(() => []);
    const { texts } = await control('POST /ui/text', { selector: '.interactive-session', timeoutMs: 1_000 }).catch(() => ({ texts: [] }));
    throw new Error(`${error.message}; the model got ${all.length} request(s), last: ${JSON.stringify(all.at(-1))?.slice(0, 3000)}; chat view: ${texts.join(' ').slice(0, 2000)}`);
  });
  await waitFor(
    'the agent answer in the chat view',
    async () => (await answersShown()).length > answersBefore,
    30_000,
    250,
  );
  return requests;
}

/** The scripted answers the chat view shows. */
async function answersShown() {
  const { texts } = await control('POST /ui/text', { selector: '.interactive-item-container.interactive-response', timeoutMs: 1_000 });
  return texts.filter((text) => text.includes(ANSWER_PREFIX));
}

/**
 * Waits until Copilot ran our Stop hook `count` times since `runsBefore` hook runs, and returns our
 * hook runs since then.
 */
async function ourRunsUntilStop(runsBefore, count = 1) {
  return waitFor(
    `Copilot to run our Stop hook (${count})`,
    async () => {
      const runs = ourRuns((await copilotHookRuns()).slice(runsBefore));
      return runs.filter((entry) => entry.event === 'Stop' && entry.outcome !== undefined).length >= count ? runs : undefined;
    },
    30_000,
    250,
  ).catch(async (error) => {
    throw new Error(`${error.message}; Copilot's hook runs: ${JSON.stringify((await copilotHookRuns()).map(({ run, event, outcome }) => ({ run, event, outcome })))} (${await hooksLogFile()})`);
  });
}

/** `{ event: count }` of hook runs. */
function eventCounts(runs) {
  const counts = {};
  for (const entry of runs) counts[entry.event] = (counts[entry.event] ?? 0) + 1;
  return counts;
}

/** Every message sent to Graphiti since the last reset, on either face, with its group. */
async function sentMessages() {
  return writes(await control('GET /emulator/requests')).flatMap((write) => write.messages.map((message) => ({ ...message, group: write.group_id })));
}

/** The user and assistant messages of the turn that asked `prompt`, once both reached Graphiti. */
function turnMessages(messages, prompt) {
  const users = messages.filter((message) => message.role_type === 'user' && message.content.includes(prompt));
  const stem = (message) => `${message.group} ${String(message.name).replace(/\.[^.]*$/, '')}`;
  const stems = new Set(users.map(stem));
  const assistants = messages.filter((message) => message.role_type === 'assistant' && stems.has(stem(message)) && message.content.includes(ANSWER_PREFIX));
  return users.length > 0 && assistants.length > 0 ? [...users, ...assistants] : undefined;
}

const DEPLOY_PROMPT = 'How do we deploy the billing API?';
const SECOND_PROMPT = 'Which platform runs the billing API deployment?';

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
      // Connect writes Copilot's file first, then Claude Code's.
      await waitFor('Claude Code settings', async () => fs.existsSync(CLAUDE_SETTINGS), 20_000);
      await waitFor('Show Status to list both agents', async () => (await vscode.commands.executeCommand('graphitiMemory.showStatus')).agents.length === 2, 20_000);
      for (const written of [COPILOT_HOOKS_FILE, CLAUDE_SETTINGS]) assert.doesNotMatch(fs.readFileSync(written, 'utf8'), /api[-_]?key/i);
      const status = await vscode.commands.executeCommand('graphitiMemory.showStatus');
      assert.deepEqual(status.agents, ['Copilot agent mode', 'Claude Code']);
      // 11c follows each turn's user and assistant episodes: per-message capture in the shared config
      // the hooks read (by default a session goes as one digest at SessionEnd or idle; the harness's
      // hook tests and the Claude Code CLI test cover digests).
      const configFile = path.join(process.env.XDG_CONFIG_HOME || path.join(os.homedir(), '.config'), 'graphiti-memory', 'config.json');
      const config = JSON.parse(fs.readFileSync(configFile, 'utf8'));
      fs.writeFileSync(configFile, JSON.stringify({ ...config, capture: { ...config.capture, granularity: 'turn' } }, null, 2));
    },
  },
  {
    name: "11b Copilot's agent loop: the UserPromptSubmit hook puts the recalled decision into the model's request, across a tool round",
    fn: async () => {
      const promoted = await vscode.commands.executeCommand('graphitiMemory.promote', { kind: 'decision', scope: 'workspace', text: FACT });
      assert.equal(promoted?.ok, true, `promote: ${JSON.stringify(promoted)}`);
      // Recall finds facts, and the emulator extracts them shortly after storing the episode.
      await waitFor('the decision to be a fact in Graphiti', async () => (await control('GET /emulator/facts')).some((fact) => /Fly\.io/.test(fact.fact)), 30_000);
      await control('POST /emulator/reset');
      const runsBefore = (await copilotHookRuns()).length;
      const requests = await askAgent(DEPLOY_PROMPT);
      const [first, ...rest] = requests;
      const firstUser = lastUserText(first);
      assert.ok(firstUser.includes(HOOK_CONTEXT), `no hook context in the user message the model got: ${firstUser.slice(0, 2000)}`);
      assert.match(firstUser, MEMORY_BLOCK, `the model's user message has no memory block with the decision: ${firstUser.slice(0, 2000)}`);
      // Said once: Copilot puts the SessionStart brief and the UserPromptSubmit recall into this one
      // message; the recall found the decision too but leaves out what the brief gave.
      assert.equal(firstUser.match(/Fly\.io/g)?.length, 1, `the decision is not in the user message exactly once: ${firstUser.slice(0, 3000)}`);
      // The tool round went through Copilot's tool (it read the workspace README), and the request
      // after it still carries the turn's hook context, unchanged.
      const afterTool = rest.find((body) => body.messages.some((message) => message.role === 'tool'));
      assert.ok(afterTool, 'no request after the tool round');
      const toolResult = afterTool.messages.find((message) => message.role === 'tool');
      assert.match(textOf(toolResult), /e2e workspace/, `the tool round did not read the workspace README: ${textOf(toolResult).slice(0, 500)}`);
      assert.equal(lastUserText(afterTool), firstUser, 'the user message after the tool round differs from the one before it');
      const searches = (await control('GET /emulator/requests')).filter(isSearchRequest);
      assert.ok(searches.length >= 1, 'the hook never searched Graphiti');
      // Copilot ran our hooks, per its own log: a new session's SessionStart, UserPromptSubmit once
      // for the user turn (not again after the tool round), and Stop at the end of the loop.
      const runs = await ourRunsUntilStop(runsBefore);
      assert.deepEqual(eventCounts(runs), { SessionStart: 1, UserPromptSubmit: 1, Stop: 1 });
      for (const entry of runs) assert.equal(entry.outcome, 'Success', `${entry.event}: ${entry.outcome}`);
      assert.equal(runs.find((entry) => entry.event === 'Stop').input?.stop_hook_active, false);
      // The chat with Copilot's answer, without the toasts that cover part of it.
      await vscode.commands.executeCommand('notifications.clearAll');
      await control('POST /ui/screenshot', { name: 'agent-hooks-copilot-answer' });
    },
  },
  {
    name: '11c a second turn recalls through UserPromptSubmit alone, and the Stop hook stores each turn once though it re-reads the transcript',
    fn: async () => {
      const explain = async (error) => {
        const requests = (await control('GET /emulator/requests')).map((entry) => `${entry.method} ${entry.path} ${entry.status}`);
        throw new Error(`${error.message}; emulator saw: ${requests.join(', ')}`);
      };
      const first = await waitFor('the agent turn to reach Graphiti as a user and an assistant message', async () => turnMessages(await sentMessages(), DEPLOY_PROMPT), 45_000, 500).catch(explain);
      // A second turn of the same session: no SessionStart this time, so the memory in its request
      // is UserPromptSubmit's recall alone (Copilot keeps hook context for one turn, so the recall
      // gives the decision again); its Stop reads the whole transcript again.
      const runsBefore = (await copilotHookRuns()).length;
      const [second] = await askAgent(SECOND_PROMPT);
      const secondUser = lastUserText(second);
      assert.match(secondUser, MEMORY_BLOCK, `the second turn's user message has no recalled decision: ${secondUser.slice(0, 2000)}`);
      assert.equal(secondUser.split('<graphiti_memory>').length - 1, 1, `not one memory block in the second turn: ${secondUser.slice(0, 2000)}`);
      await waitFor('the second turn to reach Graphiti', async () => turnMessages(await sentMessages(), SECOND_PROMPT), 45_000, 500).catch(explain);
      assert.deepEqual(eventCounts(await ourRunsUntilStop(runsBefore)), { UserPromptSubmit: 1, Stop: 1 });
      await sleep(2_000);
      const sent = await sentMessages();
      const secondTurn = turnMessages(sent, SECOND_PROMPT);
      for (const message of [...first, ...secondTurn]) {
        const copies = sent.filter((other) => other.group === message.group && other.name === message.name);
        assert.equal(copies.length, 1, `${message.name} was sent ${copies.length} times to ${message.group}`);
      }
      assert.ok(new Set(first.map((message) => message.name)).size >= 2, `the turn's user and assistant episodes: ${first.map((message) => message.name)}`);
    },
  },
  {
    name: '11d Disconnect: the hook file goes, Copilot soon stops running our hooks, and no turn carries memory or sends anything',
    fn: async () => {
      await control('POST /ui/run-command', { title: 'Graphiti Memory: Disconnect Copilot Agent and Claude Code' });
      await control('POST /ui/click-button', { name: 'Disconnect', exact: true });
      await waitFor('the Copilot hooks file to go', async () => !fs.existsSync(COPILOT_HOOKS_FILE), 20_000);
      await waitFor('Show Status to list no connected agent', async () => (await vscode.commands.executeCommand('graphitiMemory.showStatus')).agents.length === 0, 20_000);
      await control('POST /emulator/reset');
      // VS Code notices the removed file a little later; until then Copilot may still run the hook,
      // and the runner, with the consent gone from the user config, prints and sends nothing.
      const prompt = 'Which region hosts the billing API?';
      let asked = 0;
      await waitFor(
        'a turn for which Copilot runs none of our hooks',
        async () => {
          const runsBefore = (await copilotHookRuns()).length;
          asked += 1;
          const requests = await askAgent(`${prompt} (${asked})`, { newSession: asked === 1 });
          for (const body of requests) assert.doesNotMatch(body.messages.map(textOf).join('\n'), /graphiti_memory/, 'memory reached the model after Disconnect');
          // UserPromptSubmit runs before the model is asked; give its log lines a moment to land.
          await sleep(1_000);
          return ourRuns((await copilotHookRuns()).slice(runsBefore)).length === 0;
        },
        60_000,
        500,
      );
      // A Stop hook that still ran would deliver within seconds (11c); give it that long.
      await sleep(5_000);
      const seen = await control('GET /emulator/requests');
      assert.deepEqual(seen.filter(isSearchRequest), [], 'a search reached Graphiti after Disconnect');
      assert.equal(writes(seen).flatMap((write) => write.messages).filter((message) => message.content.includes(prompt)).length, 0, 'a turn was stored after Disconnect');
    },
  },
];

exports.run = () => runTests(tests);
