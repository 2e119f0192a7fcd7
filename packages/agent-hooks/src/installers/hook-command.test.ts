import { describe, expect, it } from 'vitest';
import { hookCommandLine, hookCommandScript, isOurHookCommand, type AgentHookCommand } from './hook-command.js';

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

describe('hookCommandScript', () => {
  it('reads back the runner script of every line hookCommandLine writes, quoted or not', () => {
    for (const scriptPath of ['/home/me/.local/share/graphiti-harness/runner/0.1.0+abc/hook-runner.cjs', "/Users/O'Brien/My Data/hook-runner.cjs"]) {
      for (const command of [electron, { nodePath: '/opt/node 20/bin/node', installedBy: 'graphiti-harness' }]) {
        expect(hookCommandScript(hookCommandLine({ ...command, scriptPath }, 'SessionStart'))).toBe(scriptPath);
      }
    }
  });

  it('gives nothing for a line not shaped as ours', () => {
    expect(hookCommandScript("node 'unterminated")).toBeUndefined();
    expect(hookCommandScript('node relative/hook-runner.cjs --event Stop')).toBeUndefined();
    expect(hookCommandScript('/usr/local/bin/my-own-hook')).toBeUndefined();
  });
});
