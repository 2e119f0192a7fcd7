// The LoopProposer of VS Code: the user's own chat model (`vscode.lm`, the model
// `capture.digestModel` names) is asked, when `graphitiMemory.loops.proposeWithModel` is on, which
// loops a closed session left open or finished. memory-core wrote the prompt (the filtered digest and
// the open loops), reads the answer strictly and keeps each proposal for review; every failure here
// is a miss (nothing proposed), never an error in chat. No content is logged.
import { inject, injectable } from 'inversify';
import { Logger, type LoopProposalAnswer, type LoopProposalRequest, type LoopProposer } from '@graphiti-memory/memory-core';
import { askChatModel, NoChatModelNotice } from './chat-model-choice.js';

/** Shown by VS Code when it asks the user to let Graphiti Memory use a chat model. */
export const LOOP_PROPOSAL_JUSTIFICATION =
  'Graphiti Memory asks the chat model which to-dos and open questions a finished chat session left open, to propose them for your review (graphitiMemory.loops.proposeWithModel).';

/** The one-time message when no chat model can propose loops. */
export const NO_LOOP_MODEL_MESSAGE =
  'Graphiti Memory: no chat model is available to propose open loops (graphitiMemory.loops.proposeWithModel is on), so none are proposed. Sign in to a chat model provider, check graphitiMemory.capture.digestModel, or turn the setting off.';

@injectable()
export class ChatModelLoopProposer implements LoopProposer {
  readonly #noModel = new NoChatModelNotice(NO_LOOP_MODEL_MESSAGE, 'graphitiMemory.loops.proposeWithModel');

  constructor(@inject(Logger) private readonly logger: Logger) {}

  async propose(request: LoopProposalRequest, signal: AbortSignal): Promise<LoopProposalAnswer> {
    // Longer than the format allows: it will be ignored anyway, so not read.
    const reply = await askChatModel({ model: request.model, prompt: request.prompt, justification: LOOP_PROPOSAL_JUSTIFICATION, stopAfterChars: request.maxAnswerChars }, signal);
    if (reply.ok) return { ok: true, answer: reply.text, model: reply.model };
    switch (reply.reason) {
      case 'no-model':
        this.#noModel.tell(this.logger, 'loops: no chat model is available to propose loops');
        break;
      case 'refused':
        this.logger.warn('loops: the chat model refused to propose loops; none are proposed', { code: reply.code });
        break;
      case 'failed':
        this.logger.warn('loops: the chat model failed to propose loops; none are proposed', { errorClass: reply.errorClass });
        break;
    }
    return { ok: false, reason: reply.reason };
  }
}
