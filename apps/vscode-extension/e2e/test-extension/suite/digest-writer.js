// Issue 22, the opt-in digest written by the user's chat model (`capture.digestWriter: chatModel`):
// another participant's finished chat is captured, its digest closes at once (`digestTurns: 1`) and
// the scripted model writes it; with the model failing, the filtered digest arrives instead.
const vscode = require('vscode');
const { assert, control, waitFor, runTests } = require('./harness.js');
const { setSetting, sentWrites, submitChat, newChatSession, grantConsent, receivedPrompts } = require('./memory-helpers.js');
const { answerCategoryDialog } = require('./trust.js');

const DIGEST_NAME = /^graphiti-memory\.digest\./;
const MODEL_WRITTEN = 'written by the chat model';


/** Clicks "Allow" when VS Code asks whether Graphiti Memory may use the chat model (the `justification` dialog). */
async function allowModelAccess() {
  const { texts } = await control('POST /ui/text', { selector: '.monaco-dialog-box', timeoutMs: 500 }).catch(() => ({ texts: [] }));
  if (texts.length > 0) await control('POST /ui/click-button', { name: 'Allow', exact: true, timeoutMs: 2_000 }).catch(() => undefined);
}

/** Waits for digests that `accept` takes to reach the emulator (on MCP the description is not sent), allowing model access when asked. */
async function waitForDigests(description, accept) {
  return waitFor(
    description,
    async () => {
      await allowModelAccess();
      const found = (await sentWrites()).flatMap((write) => write.messages).filter((message) => DIGEST_NAME.test(message.name ?? '') && accept(message));
      return found.length > 0 ? found : undefined;
    },
    90_000,
    500,
  );
}

const tests = [
  {
    name: '22a with capture.digestWriter chatModel, a finished chat reaches Graphiti as the digest the chat model wrote',
    fn: async () => {
      await setSetting('capture.digestTurns', 1);
      await setSetting('capture.digestWriter', 'chatModel');
      await setSetting('capture.digestModel', 'scripted');
      await setSetting('enabled', true);
      await grantConsent();
      await setSetting('capture.vscodeChat', true);
      await answerCategoryDialog(/other chats of this workspace/);
      await control('POST /emulator/reset');
      await newChatSession();
      await submitChat('@echo The docs site is built with Astro.');
      // The scripted model answers `Scripted answer: noted "<the start of our digest prompt>"`.
      const digests = await waitForDigests("the @echo chat's digest, written by the scripted model, to reach the emulator", (message) =>
        message.content.startsWith('Scripted answer: noted "Write a digest'),
      );
      const prompts = await receivedPrompts();
      const asked = prompts.find((prompt) => prompt.startsWith('Write a digest'));
      assert.ok(asked, 'the scripted model was never asked for a digest');
      assert.match(asked, /Astro/, 'the digest prompt does not hold the filtered turn');
      // The filtered turn text is not what was sent: the model's text replaced it.
      for (const digest of digests) assert.doesNotMatch(digest.content, /Echo participant heard/);
      const described = digests.filter((digest) => digest.source_description !== undefined);
      for (const digest of described) assert.ok(digest.source_description.endsWith(MODEL_WRITTEN), `description: ${digest.source_description}`);
    },
  },
  {
    name: '22b with the chat model failing, the filtered digest arrives instead',
    fn: async () => {
      await vscode.commands.executeCommand('graphitiE2e.failModel', true);
      try {
        await control('POST /emulator/reset');
        await newChatSession();
        await submitChat('@echo The API gateway is Kong.');
        const digests = await waitForDigests("the @echo chat's filtered digest to reach the emulator", (message) => message.content.includes('Kong'));
        for (const digest of digests) {
          assert.match(digest.content, /Echo participant heard: .*Kong/, `the filtered digest keeps the turn: ${digest.content}`);
          assert.doesNotMatch(digest.content, /^Scripted answer/);
          if (digest.source_description !== undefined) assert.ok(!digest.source_description.endsWith(MODEL_WRITTEN), `description: ${digest.source_description}`);
        }
        const asked = (await receivedPrompts()).filter((prompt) => prompt.startsWith('Write a digest') && prompt.includes('Kong'));
        assert.ok(asked.length > 0, 'the failing model was not asked: the fallback was not exercised');
      } finally {
        await vscode.commands.executeCommand('graphitiE2e.failModel', false);
      }
    },
  },
];

exports.run = () => runTests(tests);
