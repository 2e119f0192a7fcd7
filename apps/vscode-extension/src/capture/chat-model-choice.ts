// Asking the user's chat model (`vscode.lm`) for text in the background, one rule for every use
// (digests, loop proposals): which model (the one `capture.digestModel` names, a family, else an id,
// or the first one offered when it is empty), the deadline memory-core gives (its signal cancels the
// request), a cap past which the rest of the answer is not read, and every failure a miss with its
// reason, never an error in chat. No content is logged here.
import * as vscode from 'vscode';
import { errorClassOf, type Logger } from '@graphiti-memory/memory-core';

export async function selectChatModel(wanted: string): Promise<vscode.LanguageModelChat | undefined> {
  if (wanted === '') return (await vscode.lm.selectChatModels())[0];
  return (await vscode.lm.selectChatModels({ family: wanted }))[0] ?? (await vscode.lm.selectChatModels({ id: wanted }))[0];
}

export interface ChatModelQuestion {
  /** `capture.digestModel`: a family, an id, or '' for the first model. */
  readonly model: string;
  readonly prompt: string;
  /** What VS Code shows when it asks the user to allow the request. */
  readonly justification: string;
  /** The answer is not read past this many characters (what memory-core would cut or ignore anyway). */
  readonly stopAfterChars: number;
}

export type ChatModelReply =
  | { readonly ok: true; readonly text: string; readonly model: string }
  | { readonly ok: false; readonly reason: 'no-model' | 'cancelled' }
  /** NoPermissions (the user said no) or Blocked (quota, policy). */
  | { readonly ok: false; readonly reason: 'refused'; readonly code: string }
  | { readonly ok: false; readonly reason: 'failed'; readonly errorClass: string };

export async function askChatModel(question: ChatModelQuestion, signal: AbortSignal): Promise<ChatModelReply> {
  const cancellation = new vscode.CancellationTokenSource();
  const cancel = (): void => cancellation.cancel();
  signal.addEventListener('abort', cancel, { once: true });
  try {
    const model = await selectChatModel(question.model);
    if (model === undefined) return { ok: false, reason: 'no-model' };
    const response = await model.sendRequest([vscode.LanguageModelChatMessage.User(question.prompt)], { justification: question.justification }, cancellation.token);
    let text = '';
    for await (const chunk of response.text) {
      text += chunk;
      if (text.length > question.stopAfterChars) break;
    }
    if (signal.aborted) return { ok: false, reason: 'cancelled' };
    return { ok: true, text, model: model.id };
  } catch (error) {
    // Only the deadline cancels the request: an error after it is the cancellation's.
    if (signal.aborted) return { ok: false, reason: 'cancelled' };
    if (error instanceof vscode.LanguageModelError) return error.code === 'NotFound' ? { ok: false, reason: 'no-model' } : { ok: false, reason: 'refused', code: error.code };
    return { ok: false, reason: 'failed', errorClass: errorClassOf(error) };
  } finally {
    signal.removeEventListener('abort', cancel);
    cancellation.dispose();
  }
}

export const OPEN_SETTING = 'Open Setting';

/** Says once per window that no chat model is available, with a button to the setting that asked for one. */
export class NoChatModelNotice {
  #told = false;

  constructor(
    private readonly message: string,
    private readonly setting: string,
  ) {}

  tell(logger: Logger, logLine: string, fields: Parameters<Logger['warn']>[1] = {}): void {
    if (this.#told) return;
    this.#told = true;
    logger.warn(logLine, fields);
    // Never awaited: what asked goes on without the model either way.
    void Promise.resolve(vscode.window.showWarningMessage(this.message, OPEN_SETTING))
      .then((answer) => (answer === OPEN_SETTING ? vscode.commands.executeCommand('workbench.action.openSettings', this.setting) : undefined))
      .catch(() => undefined);
  }
}
