// Everything the harness prints goes through here: results on stdout, notices and progress on
// stderr, exactly one JSON object on stdout with --json, colour only where the terminal has it.
import readline from 'node:readline/promises';
import { SingleBar } from 'cli-progress';
import picocolors from 'picocolors';
import type { Colors } from 'picocolors/types.js';
import { supportsColor, type Terminal } from './terminal.js';

export interface ProgressBar {
  update(value: number, total?: number): void;
  stop(): void;
}

const noProgress: ProgressBar = { update() {}, stop() {} };

export class Output {
  /** Colours for stdout. */
  readonly colors: Colors;
  /** Colours for stderr. */
  readonly errorColors: Colors;
  private jsonWritten = false;

  constructor(
    readonly terminal: Terminal,
    readonly json: boolean,
    colorAllowed: boolean,
  ) {
    this.colors = picocolors.createColors(colorAllowed && supportsColor(terminal.stdout, terminal.env));
    this.errorColors = picocolors.createColors(colorAllowed && supportsColor(terminal.stderr, terminal.env));
  }

  /** A result line for humans (stdout); nothing with --json. */
  line(text = ''): void {
    if (!this.json) this.terminal.stdout.write(`${text}\n`);
  }

  /** A step heading of a multi-step command. */
  heading(text: string): void {
    this.line();
    this.line(this.colors.bold(this.colors.cyan(`▸ ${text}`)));
  }

  /** A notice on stderr (progress of work, what the harness decided); nothing with --json. */
  info(text: string): void {
    if (!this.json) this.terminal.stderr.write(`${this.errorColors.dim(text)}\n`);
  }

  /** Important for every reader, --json included (stderr): e.g. that the endpoint is an emulator. */
  notice(text: string): void {
    this.terminal.stderr.write(`${this.errorColors.yellow(text)}\n`);
  }

  warn(text: string): void {
    this.terminal.stderr.write(`${this.errorColors.yellow(`warning: ${text}`)}\n`);
  }

  error(message: string, hint?: string): void {
    this.terminal.stderr.write(`${this.errorColors.red(`error: ${message}`)}\n`);
    if (hint !== undefined) this.terminal.stderr.write(`${this.errorColors.dim(`  ${hint}`)}\n`);
  }

  /** The one JSON object of a --json run (stdout). A second call is a programming error. */
  result(value: unknown): void {
    if (!this.json) return;
    if (this.jsonWritten) throw new Error('Output.result called twice: a --json run prints exactly one JSON object.');
    this.jsonWritten = true;
    this.terminal.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
  }

  get wroteResult(): boolean {
    return this.jsonWritten;
  }

  /** A progress bar on stderr, only for humans on a terminal. */
  progress(label: string, total: number): ProgressBar {
    const stream = this.terminal.stderr;
    if (this.json || stream.isTTY !== true) return noProgress;
    const bar = new SingleBar({
      stream: stream as NodeJS.WritableStream,
      format: `${label} ${this.errorColors.cyan('{bar}')} {value}/{total} {duration_formatted}`,
      hideCursor: true,
      clearOnComplete: true,
      barsize: 24,
    });
    bar.start(total, 0);
    let stopped = false;
    return {
      update(value, newTotal) {
        if (stopped) return;
        if (newTotal !== undefined) bar.setTotal(newTotal);
        bar.update(value);
      },
      stop() {
        if (stopped) return;
        stopped = true;
        bar.stop();
      },
    };
  }

  /** Asks for a line on the terminal; an empty answer is `fallback`. */
  async ask(question: string, fallback: string): Promise<string> {
    const prompt = readline.createInterface({ input: this.terminal.stdin, output: this.terminal.stderr as NodeJS.WritableStream });
    try {
      const answer = (await prompt.question(`${question} [${fallback}] `)).trim();
      return answer === '' ? fallback : answer;
    } finally {
      prompt.close();
    }
  }

  /** Asks a yes/no question on the terminal; `false` unless the answer starts with y. */
  async confirm(question: string): Promise<boolean> {
    const prompt = readline.createInterface({ input: this.terminal.stdin, output: this.terminal.stderr as NodeJS.WritableStream });
    try {
      const answer = await prompt.question(`${question} [y/N] `);
      return /^y(es)?$/i.test(answer.trim());
    } finally {
      prompt.close();
    }
  }
}
