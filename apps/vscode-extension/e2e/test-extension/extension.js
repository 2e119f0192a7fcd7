// Test-only extension: a scripted language model that records every prompt it receives, and a
// second chat participant (`@echo`) whose turns VS Code persists like any other participant's.
const path = require('node:path');
const vscode = require('vscode');

/** Every request the scripted model received, newest last: the prompt text of all its messages. */
const receivedPrompts = [];
/** While set (`graphitiE2e.failModel`), the scripted model fails every request, as a provider in trouble would. */
let failing = false;

function messageText(message) {
  const parts = Array.isArray(message.content) ? message.content : [message.content];
  return parts.map((part) => (typeof part === 'string' ? part : (part?.value ?? ''))).join('');
}

exports.activate = (context) => {
  context.subscriptions.push(
    vscode.lm.registerLanguageModelChatProvider('graphiti-e2e', {
      provideLanguageModelChatInformation: () => [
        { id: 'scripted-1', name: 'Scripted E2E Model', family: 'scripted', version: '1', maxInputTokens: 128000, maxOutputTokens: 4096, capabilities: { toolCalling: true } },
      ],
      provideLanguageModelChatResponse: async (_model, messages, _options, progress) => {
        const prompt = messages.map(messageText).join('\n');
        receivedPrompts.push(prompt);
        if (failing) throw new Error('scripted model failure (graphitiE2e.failModel)');
        const lastUser = messageText(messages[messages.length - 1] ?? { content: '' });
        progress.report(new vscode.LanguageModelTextPart(`Scripted answer: noted "${lastUser.slice(0, 80)}".`));
      },
      provideTokenCount: async (_model, text) => Math.ceil((typeof text === 'string' ? text : messageText(text)).length / 4),
    }),
    vscode.chat.createChatParticipant('graphiti-e2e.echo', async (request, _context, stream) => {
      stream.markdown(`Echo participant heard: ${request.prompt}`);
      return {};
    }),
    vscode.commands.registerCommand('graphitiE2e.receivedPrompts', () => receivedPrompts.slice()),
    vscode.commands.registerCommand('graphitiE2e.failModel', (value) => {
      failing = value === true;
    }),
    // Every extension's log folder of this extension host: where Copilot Chat logs the hooks it ran.
    vscode.commands.registerCommand('graphitiE2e.extensionLogsFolder', () => path.dirname(context.logUri.fsPath)),
  );
  // The e2e runner names the suite to run in this window; it reports its end to the runner.
  const suite = process.env.GRAPHITI_E2E_SUITE;
  if (suite) {
    setTimeout(() => {
      const { control } = require('./suite/harness.js');
      Promise.resolve()
        .then(() => require(`./suite/${suite}`).run())
        .then(
          () => control('POST /done', { code: 0 }),
          (error) => control('POST /done', { code: 1, error: String(error?.stack ?? error) }),
        )
        .catch(() => undefined);
    }, 3_000);
  }
};
