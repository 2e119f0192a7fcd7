// The LoopProposer of VS Code: the user's own chat model (`vscode.lm`, the model
// `capture.digestModel` names) is asked, when `graphitiMemory.loops.proposeWithModel` is on, which
// loops a closed session left open or finished. memory-core wrote the prompt (the filtered digest and
// the open loops), reads the answer strictly and keeps each proposal for review; every failure here
// is a miss (nothing proposed), never an error in chat. No content is logged.
import { inject, injectable } from 'inversify';
import * as vscode from 'vscode';
import { errorClassOf, Logger, type LoopProposalAnswer, type LoopProposalRequest, type LoopProposer } from '@graphiti-memory/memory-core';
import { selectChatModel } from './chat-model-choice.js';

/** Shown by VS Code when it asks the user to let Graphiti Memory use a chat model. */
export const LOOP_PROPOSAL_JUSTIFICATION =
  'Graphiti Memory asks the chat model which to-dos and open questions a finished chat session left open, to propose them for your review (graphitiMemory.loops.proposeWithModel).';

/** The one-time message when no chat model can propose loops. */
export const NO_LOOP_MODEL_MESSAGE =
  'Graphiti Memory: no chat model is available to propose open loops (graphitiMemory.loops.proposeWithModel is on), so none are proposed. Sign in to a chat model provider, check graphitiMemory.capture.digestModel, or turn the setting off.';
export const OPEN_LOOP_SETTING = 'Open Setting';

@injectable()
export class ChatModelLoopProposer implements LoopProposer {
  #toldNoModel = false;

  constructor(@inject(Logger) private readonly logger: Logger) {}

  async propose(request: LoopProposalRequest, signal: AbortSignal): Promise<LoopProposalAnswer> {
    const cancellation = new vscode.CancellationTokenSource();
    const cancel = (): void => cancellation.cancel();
    signal.addEventListener('abort', cancel, { once: true });
    try {
      const model = await selectChatModel(request.model);
      if (model === undefined) return this.#noModel();
      const response = await model.sendRequest([vscode.LanguageModelChatMessage.User(request.prompt)], { justification: LOOP_PROPOSAL_JUSTIFICATION }, cancellation.token);
      let answer = '';
      for await (const chunk of response.text) {
        answer += chunk;
        // Longer than the format allows: it will be ignored anyway, so stop paying for it.
        if (answer.length > request.maxAnswerChars) break;
      }
      if (signal.aborted) return { ok: false, reason: 'cancelled' };
      return { ok: true, answer, model: model.id };
    } catch (error) {
      if (signal.aborted) return { ok: false, reason: 'cancelled' };
      if (error instanceof vscode.LanguageModelError) {
        if (error.code === 'NotFound') return this.#noModel();
        this.logger.warn('loops: the chat model refused to propose loops; none are proposed', { code: error.code });
        return { ok: false, reason: 'refused' };
      }
      this.logger.warn('loops: the chat model failed to propose loops; none are proposed', { errorClass: errorClassOf(error) });
      return { ok: false, reason: 'failed' };
    } finally {
      signal.removeEventListener('abort', cancel);
      cancellation.dispose();
    }
  }

  #noModel(): LoopProposalAnswer {
    if (!this.#toldNoModel) {
      this.#toldNoModel = true;
      this.logger.warn('loops: no chat model is available to propose loops');
      // Told once per window, never awaited: capture goes on either way.
      void Promise.resolve(vscode.window.showWarningMessage(NO_LOOP_MODEL_MESSAGE, OPEN_LOOP_SETTING))
        .then((answer) => (answer === OPEN_LOOP_SETTING ? vscode.commands.executeCommand('workbench.action.openSettings', 'graphitiMemory.loops.proposeWithModel') : undefined))
        .catch(() => undefined);
    }
    return { ok: false, reason: 'no-model' };
  }
}
