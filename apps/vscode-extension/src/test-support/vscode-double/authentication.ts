// `vscode.authentication` and the clipboard of the test double: accounts the user is signed in to
// (per provider, with the scopes each session has) and what was copied.
import type * as vscode from 'vscode';
import { EventEmitter } from './basics.js';
import { onTestHostReset } from './test-host.js';

interface SignedIn {
  readonly providerId: string;
  readonly session: vscode.AuthenticationSession;
}

let signedIn: SignedIn[] = [];
let clipboardText = '';
const sessionsChanged = new EventEmitter<vscode.AuthenticationSessionsChangeEvent>();
/** Every `getSession` call, to check that nothing ever prompts. */
export const sessionRequests: { providerId: string; scopes: readonly string[]; options: vscode.AuthenticationGetSessionOptions | undefined }[] = [];
onTestHostReset(() => {
  signedIn = [];
  clipboardText = '';
  sessionRequests.length = 0;
});

/** Signs the user in to a provider with a session of the given scopes (fires `onDidChangeSessions`). */
export function signIn(providerId: string, account: { id: string; label: string }, scopes: readonly string[] = ['read:user']): void {
  signedIn.push({ providerId, session: { id: `${providerId}-${account.id}`, accessToken: 'test-token', account, scopes } });
  sessionsChanged.fire({ provider: { id: providerId, label: providerId } });
}

export function clipboardContents(): string {
  return clipboardText;
}

export const clipboard = {
  async readText(): Promise<string> {
    return clipboardText;
  },
  async writeText(value: string): Promise<void> {
    clipboardText = value;
  },
} satisfies vscode.Clipboard;

export const authentication = {
  async getSession(
    providerId: string,
    scopes: readonly string[],
    options?: vscode.AuthenticationGetSessionOptions,
  ): Promise<vscode.AuthenticationSession | undefined> {
    sessionRequests.push({ providerId, scopes, options });
    if (options?.createIfNone || options?.forceNewSession) throw new Error('vscode double: a sign-in prompt was requested');
    const wanted = [...scopes].sort().join(' ');
    return signedIn.find((entry) => entry.providerId === providerId && [...entry.session.scopes].sort().join(' ') === wanted)?.session;
  },
  onDidChangeSessions: sessionsChanged.event,
} satisfies Partial<Record<keyof typeof vscode.authentication, unknown>>;
