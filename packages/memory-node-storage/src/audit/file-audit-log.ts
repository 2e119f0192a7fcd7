// The audit log as JSON lines in the state folder (0600), one line a request, appended in the
// background and rotated by size: `audit.jsonl` → `audit.jsonl.1` → … up to `keepFiles` old files.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { filterAuditEntries, type AuditEntry, type AuditLog, type AuditQuery, type Logger } from '@graphiti-memory/memory-core';
import { isRecord, PRIVATE_FILE_MODE } from '../stores/locked-json-file.js';

export interface FileAuditLogOptions {
  readonly filePath: string;
  /** Rotate once the file is larger (default 1 MiB). */
  readonly maxBytes?: number;
  /** Rotated files kept (default 3). */
  readonly keepFiles?: number;
  readonly logger?: Logger;
}

export const DEFAULT_AUDIT_MAX_BYTES = 1024 * 1024;
const DEFAULT_KEEP_FILES = 3;

export class FileAuditLog implements AuditLog {
  readonly filePath: string;
  readonly #maxBytes: number;
  readonly #keepFiles: number;
  readonly #logger: Logger | undefined;
  #queued: string[] = [];
  #writing: Promise<void> | undefined;

  constructor(options: FileAuditLogOptions) {
    this.filePath = path.resolve(options.filePath);
    this.#maxBytes = Math.max(1024, options.maxBytes ?? DEFAULT_AUDIT_MAX_BYTES);
    this.#keepFiles = Math.max(1, Math.floor(options.keepFiles ?? DEFAULT_KEEP_FILES));
    this.#logger = options.logger;
  }

  record(entry: AuditEntry): void {
    this.#queued.push(`${JSON.stringify(entry)}\n`);
    this.#writing ??= this.#writeLoop();
  }

  /** Entries of the rotated files and the current one, oldest first. */
  async read(query: AuditQuery = {}): Promise<readonly AuditEntry[]> {
    await this.flush();
    const files = [...Array.from({ length: this.#keepFiles }, (_, index) => `${this.filePath}.${this.#keepFiles - index}`), this.filePath];
    const entries: AuditEntry[] = [];
    for (const file of files) {
      let text: string;
      try {
        text = await fs.readFile(file, 'utf8');
      } catch {
        continue;
      }
      for (const line of text.split('\n')) {
        const entry = parseLine(line);
        if (entry !== undefined) entries.push(entry);
      }
    }
    return filterAuditEntries(entries, query);
  }

  async flush(): Promise<void> {
    while (this.#writing !== undefined) await this.#writing;
  }

  async #writeLoop(): Promise<void> {
    while (this.#queued.length > 0) {
      const lines = this.#queued.join('');
      this.#queued = [];
      try {
        await fs.mkdir(path.dirname(this.filePath), { recursive: true, mode: 0o700 });
        await fs.appendFile(this.filePath, lines, { mode: PRIVATE_FILE_MODE });
        if ((await fs.stat(this.filePath)).size > this.#maxBytes) await this.#rotate();
      } catch (error) {
        // Never stops delivery; the failure is logged without the entry.
        this.#logger?.warn('audit: writing the audit log failed', { file: this.filePath, code: (error as NodeJS.ErrnoException).code });
      }
    }
    this.#writing = undefined;
  }

  async #rotate(): Promise<void> {
    for (let index = this.#keepFiles - 1; index >= 1; index--) {
      await fs.rename(`${this.filePath}.${index}`, `${this.filePath}.${index + 1}`).catch(() => undefined);
    }
    await fs.rename(this.filePath, `${this.filePath}.1`);
  }
}

function parseLine(line: string): AuditEntry | undefined {
  if (line.trim() === '') return undefined;
  try {
    const value = JSON.parse(line) as unknown;
    return isRecord(value) && typeof value['at'] === 'string' && typeof value['groupId'] === 'string' ? (value as unknown as AuditEntry) : undefined;
  } catch {
    return undefined;
  }
}
