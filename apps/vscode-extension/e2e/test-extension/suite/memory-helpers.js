// Helpers shared by the suites: settings, chat submission through the real chat view, and reading
// what reached the emulator.
const vscode = require('vscode');
const { control, waitFor, sleep } = require('./harness.js');

const MODEL = { vendor: 'graphiti-e2e', id: 'scripted-1' };

async function setSetting(key, value) {
  await vscode.workspace.getConfiguration('graphitiMemory').update(key, value, vscode.ConfigurationTarget.Global);
}

async function emulatorRequests() {
  return control('GET /emulator/requests');
}

/** Every request that reached the emulator since the last reset (method, path, body, status). */
async function networkRequests() {
  return emulatorRequests();
}

/**
 * The writes among `requests`, the same on either face of Graphiti: a REST `POST /messages` as it
 * was sent, and each MCP `add_memory` call as the one message it carries (its `episode_body` is
 * `"<role>(<role_type>): <content>"`), as `{ group_id, messages: [{ name, role, role_type, content }] }`.
 */
function writes(requests) {
  const found = [];
  for (const request of requests) {
    if (request.path === '/messages') {
      found.push(request.body);
      continue;
    }
    const call = request.body;
    if (call?.method !== 'tools/call' || call.params?.name !== 'add_memory') continue;
    const args = call.params.arguments ?? {};
    const parsed = /^([^\n()]*)\((user|assistant|system)\): ([\s\S]*)$/.exec(args.episode_body ?? '');
    const message = {
      name: args.name,
      role: parsed ? parsed[1] : null,
      role_type: parsed ? parsed[2] : undefined,
      content: parsed ? parsed[3] : args.episode_body,
    };
    if ('uuid' in args) message.uuid = args.uuid;
    found.push({ group_id: args.group_id, messages: [message] });
  }
  return found;
}

/** What was written to Graphiti since the last reset, on either face (see `writes`). */
async function sentWrites() {
  return writes(await networkRequests());
}

/** Whether `request` searched facts, on either face (REST `POST /search`, MCP `search_memory_facts`). */
function isSearchRequest(request) {
  if (request.path === '/search') return true;
  const call = request.body;
  return call?.method === 'tools/call' && call.params?.name === 'search_memory_facts';
}

/** Whether `request` deleted something, on either face (REST `DELETE …`, MCP `clear_graph` / `delete_episode` / `delete_entity_edge`). */
function isDeleteRequest(request) {
  if (request.method === 'DELETE') return true;
  const call = request.body;
  return call?.method === 'tools/call' && ['clear_graph', 'delete_episode', 'delete_entity_edge'].includes(call.params?.name);
}

/** Whether `request` asked the server for its health (REST `/healthcheck`, MCP `/health`). */
function isHealthRequest(request) {
  return request.path === '/healthcheck' || request.path === '/health';
}

async function receivedPrompts() {
  return vscode.commands.executeCommand('graphitiE2e.receivedPrompts');
}

/** Submits a chat request through the chat view, as a user typing and pressing Enter would. */
async function submitChat(query) {
  await vscode.commands.executeCommand('workbench.action.chat.open', {
    query,
    isPartialQuery: false,
    mode: 'ask',
    modelSelector: MODEL,
  });
}

/** Starts a new chat session in the chat view (a new session id, so a new session scope). */
async function newChatSession() {
  await vscode.commands.executeCommand('workbench.action.chat.newChat');
  await sleep(500);
}

/** Waits for the scripted model to receive one more prompt than `before`, and returns it. */
async function nextPrompt(before, timeoutMs = 30_000) {
  return waitFor(
    'the scripted model to receive a prompt',
    async () => {
      const prompts = await receivedPrompts();
      return prompts.length > before ? prompts[prompts.length - 1] : undefined;
    },
    timeoutMs,
    100,
  );
}

async function dialogVisible() {
  const { texts } = await control('POST /ui/text', { selector: '.monaco-dialog-box', timeoutMs: 1_000 });
  return texts.length > 0;
}

/**
 * Answers "Allow" to the consent dialog until the extension no longer waits for consent: a changed
 * endpoint may raise the dialog on its own, or the Enable command raises it.
 */
async function grantConsent() {
  await waitFor(
    'consent to be recorded',
    async () => {
      const status = await vscode.commands.executeCommand('graphitiMemory.showStatus');
      // After Revoke Consent the state is "revoked": it waits for consent just the same.
      if (status?.state !== 'needsConsent' && status?.state !== 'revoked') return true;
      if (!(await dialogVisible())) void vscode.commands.executeCommand('graphitiMemory.enable');
      await control('POST /ui/click-button', { name: 'Allow', exact: true, timeoutMs: 5_000 }).catch(() => undefined);
      return false;
    },
    30_000,
    500,
  );
}

function episodeNames(episodes) {
  return episodes.map((episode) => episode.name);
}

module.exports = {
  isDeleteRequest,
  MODEL,
  setSetting,
  emulatorRequests,
  networkRequests,
  writes,
  sentWrites,
  isSearchRequest,
  isHealthRequest,
  receivedPrompts,
  submitChat,
  newChatSession,
  nextPrompt,
  episodeNames,
  grantConsent,
};
