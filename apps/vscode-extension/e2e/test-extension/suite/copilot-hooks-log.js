// Which hooks Copilot Chat ran, read from its own "GitHub Copilot Chat Hooks" log (Copilot 0.67):
// per hook run, lines `[#<run>] [<Event>] Running: {"command",…}`, `… Input: {…}` and
// `… Completed (<Outcome>) in <n>ms`. The log sits beside every extension's log folder.
const fs = require('node:fs');
const path = require('node:path');
const vscode = require('vscode');

const LINE = /\[#(\d+)\] \[(\w+)\] (Running|Input|Completed)(?::| )\s*(.*)$/;

/** @returns {Promise<string>} the log file's path (it may not exist before the first hook ran) */
async function hooksLogFile() {
  const folder = await vscode.commands.executeCommand('graphitiE2e.extensionLogsFolder');
  return path.join(folder, 'GitHub.copilot-chat', 'GitHub Copilot Chat Hooks.log');
}

/**
 * Every hook command Copilot ran, oldest first: `{ run, event, command, input, outcome }`
 * (`outcome` e.g. "Success", undefined while it runs).
 */
async function copilotHookRuns() {
  let text;
  try {
    text = fs.readFileSync(await hooksLogFile(), 'utf8');
  } catch (error) {
    if (error?.code === 'ENOENT') return [];
    throw error;
  }
  const runs = [];
  const open = new Map();
  for (const line of text.split('\n')) {
    const match = LINE.exec(line);
    if (!match) continue;
    const [, run, event, kind, rest] = match;
    const key = `${run} ${event}`;
    if (kind === 'Running') {
      const entry = { run: Number(run), event, command: parseJson(rest)?.command, input: undefined, outcome: undefined };
      runs.push(entry);
      open.set(key, entry);
    } else if (kind === 'Input' && open.has(key)) {
      open.get(key).input = parseJson(rest);
    } else if (kind === 'Completed' && open.has(key)) {
      open.get(key).outcome = /^\((\w+)\)/.exec(rest)?.[1];
      open.delete(key);
    }
  }
  return runs;
}

/** The runs of the hook runner that the extension's Connect installed. */
function ourRuns(runs) {
  return runs.filter((entry) => typeof entry.command === 'string' && entry.command.includes('hook-runner.cjs') && entry.command.includes('--installed-by vscode'));
}

function parseJson(text) {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

module.exports = { copilotHookRuns, ourRuns, hooksLogFile };
