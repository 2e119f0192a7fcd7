// The untrusted-workspace session: whatever the settings say, nothing reaches Graphiti.
const vscode = require('vscode');
const { assert, control, sleep, runTests } = require('./harness.js');
const { setSetting, networkRequests, receivedPrompts, submitChat, nextPrompt } = require('./memory-helpers.js');

const tests = [
  {
    name: '6 an untrusted workspace sends nothing, whatever the settings',
    fn: async () => {
      assert.equal(vscode.workspace.isTrusted, false, 'the workspace was expected to be untrusted');
      await control('POST /emulator/reset');
      const extension = vscode.extensions.getExtension('graphiti-memory.graphiti-memory');
      assert.ok(extension, 'the extension is not installed');
      await extension.activate();
      await setSetting('enabled', true);
      await setSetting('recall.enabled', true);
      await setSetting('capture.vscodeChat', true);
      await vscode.commands.executeCommand('graphitiMemory.enable').catch(() => undefined);
      const result = await vscode.commands.executeCommand('graphitiMemory.testConnection', 'health');
      assert.equal(result?.ok, false, `Test Connection ran in an untrusted workspace: ${JSON.stringify(result)}`);
      assert.match(result.message, /trust/i);
      const before = (await receivedPrompts()).length;
      await submitChat('@memory We deploy with Fly.io.');
      await nextPrompt(before);
      await submitChat('@echo The staging database runs Postgres 16.');
      await sleep(4_000);
      assert.deepEqual(await networkRequests(), [], 'a request reached the emulator from an untrusted workspace');
    },
  },
];

exports.run = () => runTests(tests);
