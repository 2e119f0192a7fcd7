// Where Codex keeps its files: `CODEX_HOME`, else `~/.codex` (hooks.json, config.toml, sessions/).
import path from 'node:path';
import type { Environment } from './assistant-descriptor.js';

/** What the user does in Codex when the install cannot record the trust itself. */
export const CODEX_TRUST_STEP = 'start Codex, open /hooks and trust the Graphiti Memory hooks (Codex skips untrusted hooks without a word)';

export function codexHome(home: string, env: Environment): string {
  const configured = env['CODEX_HOME'];
  return configured !== undefined && configured.trim() !== '' ? path.resolve(configured) : path.join(home, '.codex');
}
