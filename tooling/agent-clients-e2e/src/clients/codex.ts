// OpenAI Codex CLI 0.169.0 (`@openai/codex`, a Rust binary behind a Node launcher), one-shot as
// `codex exec`. Its model provider is the scripted Responses API; update checks, analytics, feedback
// and plugin sync (which reaches out at start) are off. Our hooks must run because the install
// recorded Codex's own hook trust: never `--dangerously-bypass-hook-trust` here.
import fs from 'node:fs';
import path from 'node:path';
import { responsesApi } from '../wire/responses-api.js';
import type { AgentClient } from './agent-client.js';

const VERSION = '0.169.0';
/** The environment variable Codex reads the (dummy) API key from (`env_key`). */
const KEY_VARIABLE = 'SCRIPTED_MODEL_KEY';

const existing = (files: readonly string[]): string[] => files.filter((file) => fs.existsSync(file));

export const codex: AgentClient = {
  target: 'codex',
  title: 'Codex',
  cli: { packageName: '@openai/codex', version: VERSION, folder: `codex-${VERSION}`, entry: path.join('bin', 'codex.js') },
  format: responsesApi,
  configure({ sandbox, modelUrl }) {
    const folder = path.join(sandbox.home, '.codex');
    fs.mkdirSync(folder, { recursive: true });
    const config = [
      'model = "scripted-model"',
      'model_provider = "scripted"',
      'approval_policy = "never"',
      'sandbox_mode = "danger-full-access"',
      'check_for_update_on_startup = false',
      '',
      '[analytics]',
      'enabled = false',
      '',
      '[feedback]',
      'enabled = false',
      '',
      '[features]',
      'plugins = false',
      '',
      '[model_providers.scripted]',
      'name = "scripted"',
      `base_url = "${modelUrl}/v1"`,
      'wire_api = "responses"',
      `env_key = "${KEY_VARIABLE}"`,
      'request_max_retries = 0',
      'stream_max_retries = 0',
      '',
      `[projects.${JSON.stringify(sandbox.workspace)}]`,
      'trust_level = "trusted"',
      '',
    ].join('\n');
    fs.writeFileSync(path.join(folder, 'config.toml'), config);
  },
  invocation: (prompt) => ({ args: ['exec', '--skip-git-repo-check', prompt], environment: { [KEY_VARIABLE]: 'e2e-dummy-key' } }),
  hookFiles: (home) => existing([path.join(home, '.codex', 'hooks.json'), path.join(home, '.codex', 'config.toml')]),
};
