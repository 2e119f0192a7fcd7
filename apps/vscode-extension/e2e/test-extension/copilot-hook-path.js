// Test-only: the part of Copilot's agent loop that runs hooks, for a VS Code where Copilot itself
// cannot run (offline, no GitHub sign-in; see e2e/README.md). VS Code core reads the hook files and
// hands the resolved hooks to this participant as `request.hooks` (chatParticipantPrivate, enabled
// by the runner's --enable-proposed-api); from there this file does what Copilot 0.67's
// ChatHookService + HookExecutor do, as read from code-server 4.139.1's
// extensions/copilot/dist/extension.js: flush the session transcript, build the event
// `{ timestamp, hook_event_name, session_id, transcript_path, ...fields }` (cwd only when the hook
// has one), spawn the command with a shell in the hook's cwd or the home folder with the extension
// host's environment plus the hook's, write the event to stdin, kill after `timeout` seconds
// (default 30), parse stdout as JSON on exit 0, take `hookSpecificOutput.additionalContext ??
// additionalContext` (dropping a mismatched hookEventName) and put it in the prompt's context as
// "Additional instructions from hooks: …"; after the answer, the transcript gets the assistant's
// turn and the Stop hook runs.
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const vscode = require('vscode');

const DEFAULT_TIMEOUT_SECONDS = 30;

function fsPathOf(uri) {
  return typeof uri?.fsPath === 'string' ? uri.fsPath : uri?.path;
}

/** One hook command, as Copilot's HookExecutor runs it: `{ kind: 1 success | 2 blocking | 3 warning, result }`. */
function executeHookCommand(hook, input) {
  return new Promise((resolve) => {
    const child = spawn(hook.command, [], {
      stdio: 'pipe',
      cwd: hook.cwd ? fsPathOf(hook.cwd) : os.homedir(),
      env: { ...process.env, ...hook.env },
      shell: true,
    });
    const stdout = [];
    const stderr = [];
    child.stdout.on('data', (chunk) => stdout.push(chunk.toString()));
    child.stderr.on('data', (chunk) => stderr.push(chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGTERM'), (hook.timeout ?? DEFAULT_TIMEOUT_SECONDS) * 1000);
    child.stdin.on('error', () => undefined);
    child.stdin.write(JSON.stringify(input));
    child.stdin.end();
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve({ kind: 3, result: String(error) });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      const output = stdout.join('');
      if (code === 0) {
        let result = output;
        try {
          if (output) result = JSON.parse(output);
        } catch {
          // Copilot keeps non-JSON output as a string and logs a warning.
        }
        resolve({ kind: 1, result, exitCode: code });
      } else resolve({ kind: code === 2 ? 2 : 3, result: stderr.join(''), exitCode: code });
    });
  });
}

/**
 * Copilot's session transcript for this chat session, where Copilot keeps it: beside this
 * extension's workspace storage, in GitHub.copilot-chat/transcripts/<session>.jsonl.
 */
function appendTranscript(context, sessionId, entries) {
  if (!context.storageUri || !sessionId) return undefined;
  const folder = path.join(path.dirname(context.storageUri.fsPath), 'GitHub.copilot-chat', 'transcripts');
  fs.mkdirSync(folder, { recursive: true });
  const file = path.join(folder, `${sessionId}.jsonl`);
  const lines = entries.map((entry) => JSON.stringify({ ...entry, id: `${Date.now()}-${Math.random()}`, timestamp: new Date().toISOString(), parentId: null }));
  fs.appendFileSync(file, lines.map((line) => `${line}\n`).join(''));
  return file;
}

/** Runs the hooks of one event and returns the additional context they gave (Copilot's rules). */
async function runHooks(hooks, event, fields, sessionId, transcriptPath) {
  const commands = hooks?.[event] ?? [];
  const base = { timestamp: new Date().toISOString(), hook_event_name: event, ...(sessionId ? { session_id: sessionId } : {}), ...(transcriptPath ? { transcript_path: transcriptPath } : {}) };
  const contexts = [];
  const runs = [];
  for (const hook of commands) {
    const input = hook.cwd ? { ...base, ...fields, cwd: fsPathOf(hook.cwd) } : { ...base, ...fields };
    const outcome = await executeHookCommand(hook, input);
    runs.push({ command: hook.command, kind: outcome.kind, exitCode: outcome.exitCode });
    if (outcome.kind !== 1 || typeof outcome.result !== 'object' || outcome.result === null) continue;
    const specific = outcome.result.hookSpecificOutput;
    const mismatched = typeof specific?.hookEventName === 'string' && specific.hookEventName !== event;
    const context = (mismatched ? undefined : specific?.additionalContext) ?? outcome.result.additionalContext;
    if (context) contexts.push(context);
  }
  return { contexts, runs };
}

/** The participant: hooks as Copilot runs them, then the user's prompt with their context to the model. */
function createHookPathParticipant(context, record) {
  const sessions = new Set();
  return async (request, _chatContext, stream, token) => {
    const sessionId = request.sessionId;
    const first = !sessions.has(sessionId);
    sessions.add(sessionId);
    const transcriptPath = appendTranscript(context, sessionId, [
      ...(first ? [{ type: 'session.start', data: { sessionId, version: 1, producer: 'copilot-agent', startTime: new Date().toISOString() } }] : []),
      { type: 'user.message', data: { content: request.prompt, attachments: [] } },
    ]);
    const contexts = [];
    const runs = [];
    if (first) {
      const start = await runHooks(request.hooks, 'SessionStart', { source: 'new' }, sessionId, transcriptPath);
      contexts.push(...start.contexts);
      runs.push(...start.runs);
    }
    const submit = await runHooks(request.hooks, 'UserPromptSubmit', { prompt: request.prompt }, sessionId, transcriptPath);
    contexts.push(...submit.contexts);
    runs.push(...submit.runs);
    record({ event: 'UserPromptSubmit', hooks: request.hooks ?? null, sessionId, runs, contexts });
    const hookContext = contexts.length > 0 ? `Additional instructions from hooks: ${contexts.join('\n')}\n` : '';
    const message = `<context>\n${hookContext}</context>\n<userRequest>\n${request.prompt}\n</userRequest>`;
    const response = await request.model.sendRequest([vscode.LanguageModelChatMessage.User(message)], {}, token);
    let answer = '';
    for await (const part of response.text) {
      answer += part;
      stream.markdown(part);
    }
    const turnId = `${Date.now()}`;
    const finalTranscript = appendTranscript(context, sessionId, [
      { type: 'assistant.turn_start', data: { turnId } },
      { type: 'assistant.message', data: { messageId: turnId, content: answer, toolRequests: [] } },
      { type: 'assistant.turn_end', data: { turnId } },
    ]);
    // The agent loop ends with the Stop hook (Copilot passes `stop_hook_active`).
    const stop = await runHooks(request.hooks, 'Stop', { stop_hook_active: false }, sessionId, finalTranscript);
    record({ event: 'Stop', sessionId, runs: stop.runs });
    return {};
  };
}

module.exports = { createHookPathParticipant, executeHookCommand };
