// Runs the real bin (through tsx, so no build is needed) and stops it with a signal.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const packageDirectory = fileURLToPath(new URL('..', import.meta.url));

function run(args: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/bin.ts', ...args], { cwd: packageDirectory });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, output: () => output };
}

describe('graphiti-emulator bin', () => {
  it('says it is an emulator, serves, and stops on SIGTERM', async () => {
    const bin = run(['--port', '0', '--processing-delay-ms', '2', '--quiet']);
    while (!/listening on (http:\/\/\S+)/.test(bin.output())) {
      if (bin.child.exitCode !== null) throw new Error(`bin exited early: ${bin.output()}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const url = /listening on (http:\/\/\S+)/.exec(bin.output())?.[1] ?? '';
    expect(bin.output()).toContain('EMULATOR');
    expect(bin.output()).toContain('NOT Graphiti');
    expect(bin.output()).toContain('2 ms');
    const reply = await fetch(`${url}/healthcheck`);
    expect(await reply.json()).toEqual({ status: 'healthy' });
    bin.child.kill('SIGTERM');
    expect(await bin.exited).toBe(0);
  });

  it('refuses a bad port with a message and exit code 1', async () => {
    const bin = run(['--port', 'eighty']);
    expect(await bin.exited).toBe(1);
    expect(bin.output()).toContain('--port must be a whole number');
  });
});
