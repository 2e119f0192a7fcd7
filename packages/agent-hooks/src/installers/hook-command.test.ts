import { describe, expect, it } from 'vitest';
import { hookCommandLine, isOurHookCommand, type AgentHookCommand } from './hook-command.js';

const electron: AgentHookCommand = {
  nodePath: '/usr/share/code/code',
  scriptPath: '/home/me/.config/graphiti-memory/hook-runner.cjs',
  installedBy: 'vscode',
  environment: { ELECTRON_RUN_AS_NODE: '1' },
};

describe('hookCommandLine with an environment', () => {
  it('sets the variables before the runtime, in POSIX and PowerShell spelling, and stays recognisable as ours', () => {
    const posix = hookCommandLine(electron, 'UserPromptSubmit');
    expect(posix).toBe('ELECTRON_RUN_AS_NODE=1 /usr/share/code/code /home/me/.config/graphiti-memory/hook-runner.cjs --event UserPromptSubmit --installed-by vscode');
    const powershell = hookCommandLine(electron, 'Stop', 'powershell');
    expect(powershell).toBe(
      "$env:ELECTRON_RUN_AS_NODE='1'; & '/usr/share/code/code' '/home/me/.config/graphiti-memory/hook-runner.cjs' '--event' 'Stop' '--installed-by' 'vscode'",
    );
    expect(isOurHookCommand(posix)).toBe(true);
    expect(isOurHookCommand(powershell)).toBe(true);
  });

  it('refuses a variable name a shell would misread', () => {
    expect(() => hookCommandLine({ ...electron, environment: { 'A B': '1' } }, 'Stop')).toThrow(/not a valid environment variable name/);
  });
});
