// Google Gemini CLI 0.61.0 (`@google/gemini-cli`, one JavaScript bundle), one-shot as `gemini -p`
// with a pinned model (no router call). Its API base is the scripted Gemini API; auto-update, usage
// statistics and telemetry are off; the workspace is trusted for the run (else a headless run exits 55).
import fs from 'node:fs';
import path from 'node:path';
import { geminiApi } from '../wire/gemini-api.js';
import type { AgentClient } from './agent-client.js';

const VERSION = '0.61.0';

export const gemini: AgentClient = {
  target: 'gemini',
  title: 'Gemini CLI',
  cli: { packageName: '@google/gemini-cli', version: VERSION, folder: `gemini-cli-${VERSION}`, entry: path.join('bundle', 'gemini.js') },
  format: geminiApi,
  configure({ sandbox }) {
    const folder = path.join(sandbox.home, '.gemini');
    fs.mkdirSync(folder, { recursive: true });
    const settings = {
      general: { enableAutoUpdate: false },
      privacy: { usageStatisticsEnabled: false },
      telemetry: { enabled: false },
      security: { auth: { selectedType: 'gemini-api-key' } },
    };
    fs.writeFileSync(path.join(folder, 'settings.json'), `${JSON.stringify(settings, null, 2)}\n`);
  },
  invocation: (prompt, { modelUrl }) => ({
    args: ['-m', 'gemini-2.5-flash', '-p', prompt],
    environment: { GOOGLE_GEMINI_BASE_URL: modelUrl, GEMINI_API_KEY: 'e2e-dummy-key', GEMINI_CLI_TRUST_WORKSPACE: 'true' },
  }),
  hookFiles: (home) => [path.join(home, '.gemini', 'settings.json')].filter((file) => fs.existsSync(file)),
};
