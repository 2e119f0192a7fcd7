// Which of the user's chat models (`vscode.lm`) memory asks: the one `capture.digestModel` names (a
// family, else an id), or the first one offered when it is empty. One rule for every use of the chat
// model (digests, loop proposals).
import * as vscode from 'vscode';

export async function selectChatModel(wanted: string): Promise<vscode.LanguageModelChat | undefined> {
  if (wanted === '') return (await vscode.lm.selectChatModels())[0];
  return (await vscode.lm.selectChatModels({ family: wanted }))[0] ?? (await vscode.lm.selectChatModels({ id: wanted }))[0];
}
