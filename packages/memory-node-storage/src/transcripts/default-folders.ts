// Where transcripts live by default.
import os from 'node:os';
import path from 'node:path';

/**
 * Claude Code's session transcripts: `~/.claude/projects` (one folder per project, one `.jsonl`
 * per session), or `$CLAUDE_CONFIG_DIR/projects` when Claude Code is configured to live elsewhere.
 */
export function defaultClaudeCodeProjectsFolder(environment: NodeJS.ProcessEnv = process.env): string {
  const configured = environment.CLAUDE_CONFIG_DIR;
  return configured !== undefined && configured !== '' ? path.join(configured, 'projects') : path.join(os.homedir(), '.claude', 'projects');
}
