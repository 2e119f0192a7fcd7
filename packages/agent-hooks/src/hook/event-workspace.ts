// Which workspace a hook event belongs to. Claude Code passes `cwd`; VS Code's Copilot passes it
// only for hooks with a cwd of their own and otherwise runs the hook in the home folder — but its
// `transcript_path` lies in the workspace's storage folder, whose `workspace.json` names the folder
// (`<user-data>/User/workspaceStorage/<id>/GitHub.copilot-chat/transcripts/<session>.jsonl`).
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The event's `cwd` when it is a folder, else the folder of VS Code's workspace storage, else `fallback`. */
export async function eventWorkspace(cwd: string | undefined, transcriptPath: string | undefined, fallback: string): Promise<string> {
  if (cwd !== undefined && (await isFolder(cwd))) return path.resolve(cwd);
  const fromStorage = transcriptPath === undefined ? undefined : await vscodeWorkspaceFolder(transcriptPath);
  return fromStorage ?? fallback;
}

async function vscodeWorkspaceFolder(transcriptPath: string): Promise<string | undefined> {
  const transcripts = path.dirname(path.resolve(transcriptPath));
  if (path.basename(transcripts) !== 'transcripts') return undefined;
  const storage = path.dirname(path.dirname(transcripts));
  try {
    const parsed = JSON.parse(await fs.readFile(path.join(storage, 'workspace.json'), 'utf8')) as { folder?: unknown };
    if (typeof parsed.folder !== 'string' || !parsed.folder.startsWith('file:')) return undefined;
    const folder = fileURLToPath(parsed.folder);
    return (await isFolder(folder)) ? folder : undefined;
  } catch {
    return undefined;
  }
}

async function isFolder(candidate: string): Promise<boolean> {
  try {
    return (await fs.stat(candidate)).isDirectory();
  } catch {
    return false;
  }
}
