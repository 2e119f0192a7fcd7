// Where Claude Code keeps the transcripts of a folder: `<projects>/<folder path with every
// character other than a letter or digit replaced by "-">/<session>.jsonl`.
import os from 'node:os';
import path from 'node:path';

/** `~/.claude/projects`, or `$CLAUDE_CONFIG_DIR/projects`. */
export function claudeCodeProjectsFolder(environment: NodeJS.ProcessEnv = process.env): string {
  const configured = environment['CLAUDE_CONFIG_DIR'];
  return configured !== undefined && configured !== '' ? path.join(configured, 'projects') : path.join(os.homedir(), '.claude', 'projects');
}

/** The transcript folder of one workspace folder. */
export function claudeCodeFolderOf(folderPath: string, projects = claudeCodeProjectsFolder()): string {
  return path.join(projects, folderPath.replace(/[^a-zA-Z0-9]/g, '-'));
}
