// The run's assertions: each is recorded (not thrown), so one failing promise does not hide the
// others, and the last line says `N passed, N failed` for CI.

export interface CheckResult {
  readonly step: string;
  readonly name: string;
  readonly passed: boolean;
  /** Why it failed (or what it saw), never chat content beyond the scenario's own scripted text. */
  readonly detail: string;
}

export class Checks {
  readonly results: CheckResult[] = [];
  private step = 'setup';

  constructor(private readonly print: (line: string) => void) {}

  begin(step: string): void {
    this.step = step;
    this.print(`\n== ${step}`);
  }

  /** Records one assertion; returns whether it held. */
  check(name: string, passed: boolean, detail = ''): boolean {
    this.results.push({ step: this.step, name, passed, detail });
    this.print(`${passed ? '  ✔' : '  ✘'} ${name}${detail === '' ? '' : passed ? ` (${detail})` : `\n      ${detail.replaceAll('\n', '\n      ')}`}`);
    return passed;
  }

  get failed(): CheckResult[] {
    return this.results.filter((result) => !result.passed);
  }

  summary(): string {
    const failed = this.failed.length;
    return `${this.results.length - failed} passed, ${failed} failed`;
  }
}
