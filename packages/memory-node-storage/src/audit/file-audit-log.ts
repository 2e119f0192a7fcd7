// The audit log as JSON lines in the state folder (0600), one line a request, appended in the
// background and rotated by size: `audit.jsonl` → `audit.jsonl.1` → … up to `keepFiles` old files.
// Every tool appends to the same file (appends of whole lines do not interleave); reading sorts by time.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { auditEntryFrom, filterAuditEntries, type AuditEntry, type AuditLog, type AuditQuery, type Logger } from '@graphiti-memory/memory-core';
import { appendPrivateFile } from '../stores/private-folder.js';

export interface FileAuditLogOptions {
  /** The log file, or how to find it (the extension learns the state folder asynchronously). */
  readonly filePath: string | (() => Promise<string>);
  /** Rotate once the file is larger (default 1 MiB). */
  readonly maxBytes?: number;
  /** Rotated files kept (default 3). */
  readonly keepFiles?: number;
  readonly logger?: Logger;
}

export const DEFAULT_AUDIT_MAX_BYTES = 1024 * 1024;
const DEFAULT_KEEP_FILES = 3;

export class FileAuditLog implements AuditLog {
  readonly #filePath: string | (() => Promise<string>);
  #resolved: Promise<string> | undefined;
  readonly #maxBytes: number;
  readonly #keepFiles: number;
  readonly #logger: Logger | undefined;
  #queued: string[] = [];
  #writing: Promise<void> | undefined;

  constructor(options: FileAuditLogOptions) {
    this.#filePath = typeof options.filePath === 'string' ? path.resolve(options.filePath) : options.filePath;
    this.#maxBytes = Math.max(1024, options.maxBytes ?? DEFAULT_AUDIT_MAX_BYTES);
    this.#keepFiles = Math.max(1, Math.floor(options.keepFiles ?? DEFAULT_KEEP_FILES));
    this.#logger = options.logger;
  }

  /** The log file (resolved once). */
  filePath(): Promise<string> {
    const given = this.#filePath;
    this.#resolved ??= typeof given === 'string' ? Promise.resolve(given) : given().then((found) => path.resolve(found));
    return this.#resolved;
  }

  record(entry: AuditEntry): void {
    this.#queued.push(`${JSON.stringify(entry)}\n`);
    this.#writing ??= this.#writeLoop();
  }

  /** Entries of the rotated files and the current one, oldest first. */
  async read(query: AuditQuery = {}): Promise<readonly AuditEntry[]> {
    await this.flush();
    const filePath = await this.filePath();
    const files = [...Array.from({ length: this.#keepFiles }, (_, index) => `${filePath}.${this.#keepFiles - index}`), filePath];
    const entries: AuditEntry[] = [];
    for (const file of files) {
      let text: string;
      try {
        text = await fs.readFile(file, 'utf8');
      } catch {
        continue;
      }
      entries.push(...parseAuditLines(text));
    }
    return filterAuditEntries(entries, query);
  }

  async flush(): Promise<void> {
    while (this.#writing !== undefined) await this.#writing;
  }

  async #writeLoop(): Promise<void> {
    let filePath: string | undefined;
    while (this.#queued.length > 0) {
      const lines = this.#queued.join('');
      this.#queued = [];
      try {
        filePath ??= await this.filePath();
        await appendPrivateFile(filePath, lines);
        if ((await fs.stat(filePath)).size > this.#maxBytes) await this.#rotate(filePath);
      } catch (error) {
        // Never stops delivery; the failure is logged without the entry.
        this.#logger?.warn('audit: writing the audit log failed', { ...(filePath === undefined ? {} : { file: filePath }), code: (error as NodeJS.ErrnoException).code });
      }
    }
    this.#writing = undefined;
  }

  async #rotate(filePath: string): Promise<void> {
    for (let index = this.#keepFiles - 1; index >= 1; index--) {
      await fs.rename(`${filePath}.${index}`, `${filePath}.${index + 1}`).catch(() => undefined);
    }
    await fs.rename(filePath, `${filePath}.1`);
  }
}

/**
 * Moves the entries of an audit log kept elsewhere (the extension's, before every tool shared one)
 * into `log`, then removes that file. Taken by renaming it first, so two processes never both
 * import it. Returns how many entries moved.
 */
export async function adoptAuditLog(fromFile: string, log: FileAuditLog): Promise<number> {
  const taken = `${fromFile}.adopting-${process.pid}`;
  try {
    await fs.rename(fromFile, taken);
  } catch {
    return 0;
  }
  const entries = parseAuditLines(await fs.readFile(taken, 'utf8').catch(() => ''));
  for (const entry of entries) log.record(entry);
  await log.flush();
  await fs.rm(taken, { force: true });
  return entries.length;
}

function parseAuditLines(text: string): AuditEntry[] {
  const entries: AuditEntry[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      const entry = auditEntryFrom(JSON.parse(line) as unknown);
      if (entry !== undefined) entries.push(entry);
    } catch {
      // A torn last line (a crash mid-append) is skipped.
    }
  }
  return entries;
}
