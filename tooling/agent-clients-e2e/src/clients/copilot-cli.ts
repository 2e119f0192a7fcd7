// GitHub Copilot CLI 1.0.102 (`@github/copilot`), one-shot as `copilot -p`, with a model provider of
// its own (the scripted Chat Completions API) and no GitHub login: offline mode, no auto-update, no
// telemetry. Its first start unpacks about 235 MB into `$XDG_CACHE_HOME/copilot/`: that one cache is
// shared between runs (a folder beside the install), everything else stays in the throwaway HOME.
import fs from 'node:fs';
import path from 'node:path';
import { chatCompletionsApi } from '../wire/chat-completions-api.js';
import type { AgentClient } from './agent-client.js';

const VERSION = '1.0.102';

export const copilotCli: AgentClient = {
  target: 'copilot-cli',
  title: 'Copilot CLI',
  cli: { packageName: '@github/copilot', version: VERSION, folder: `copilot-cli-${VERSION}`, entry: 'npm-loader.js' },
  format: chatCompletionsApi,
  configure() {
    // Nothing to write: the provider comes from the environment.
  },
  invocation: (prompt, { modelUrl, cacheDirectory }) => ({
    args: ['-p', prompt, '--allow-all-tools', '--no-auto-update', '--disable-client-telemetry'],
    environment: {
      COPILOT_PROVIDER_BASE_URL: `${modelUrl}/v1`,
      COPILOT_PROVIDER_API_KEY: 'e2e-dummy-key',
      COPILOT_MODEL: 'scripted-model',
      COPILOT_OFFLINE: 'true',
      XDG_CACHE_HOME: path.join(cacheDirectory, `copilot-cli-${VERSION}-unpacked`),
    },
  }),
  hookFiles(home) {
    // Copilot CLI reads every `*.json` of the folder.
    const folder = path.join(home, '.copilot', 'hooks');
    return fs.existsSync(folder) ? fs.readdirSync(folder).filter((name) => name.endsWith('.json')).map((name) => path.join(folder, name)) : [];
  },
};
