// A small real file system for the disk-fault e2e tests: a tmpfs mounted on a test's state folder,
// filled to the last byte, freed, remounted read-only and back. Mounting needs root (these
// machines run tests as root); where that fails the tests skip and say why, never pass silently.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, promises as fs, rmdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const FILLER = 'filler.bin';

/** Why a tmpfs cannot be mounted here (`undefined`: it can). Tried once, on a throw-away folder. */
export function smallDiskUnavailable(): string | undefined {
  if (process.platform !== 'linux') return `disk-fault tests need Linux tmpfs (this is ${process.platform})`;
  const probe = mkdtempSync(path.join(os.tmpdir(), 'tmpfs-probe-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', probe], { stdio: 'pipe' });
    execFileSync('umount', [probe], { stdio: 'pipe' });
    return undefined;
  } catch (error) {
    const stderr = (error as { stderr?: Buffer }).stderr?.toString().trim();
    return `mounting a tmpfs failed (${stderr || (error as Error).message}): the disk-fault tests need root (mount -t tmpfs)`;
  } finally {
    rmdirSync(probe);
  }
}

export class SmallDisk {
  private constructor(readonly folder: string) {}

  /** Mounts a tmpfs of `size` (as mount(8) takes it: `4m`) on `folder`, private to its owner. */
  static async mount(folder: string, size: string): Promise<SmallDisk> {
    await fs.mkdir(folder, { recursive: true });
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size},mode=0700`, 'tmpfs', folder], { stdio: 'pipe' });
    return new SmallDisk(folder);
  }

  /** Writes a filler file until the file system refuses another byte (ENOSPC). */
  async fill(): Promise<void> {
    const handle = await fs.open(path.join(this.folder, FILLER), 'a');
    try {
      for (const size of [256 * 1024, 4096, 512, 1]) {
        const chunk = Buffer.alloc(size, 0x2e);
        for (;;) {
          try {
            await handle.write(chunk);
          } catch (error) {
            if ((error as NodeJS.ErrnoException).code === 'ENOSPC') break;
            throw error;
          }
        }
      }
    } finally {
      await handle.close();
    }
  }

  /** Removes the filler: space is back. */
  async free(): Promise<void> {
    await fs.rm(path.join(this.folder, FILLER), { force: true });
  }

  /** Remounts read-only; retried while a writer still holds a file open (EBUSY). */
  async readOnly(): Promise<void> {
    await this.#remount('ro');
  }

  async writable(): Promise<void> {
    await this.#remount('rw');
  }

  async #remount(mode: 'ro' | 'rw'): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        execFileSync('mount', ['-o', `remount,${mode}`, this.folder], { stdio: 'pipe' });
        return;
      } catch (error) {
        if (attempt >= 100) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  }

  /** Unmounts (lazily: a process that still has it open does not keep the test). */
  unmount(): void {
    try {
      execFileSync('umount', ['-l', this.folder], { stdio: 'pipe' });
    } catch {
      // Already gone.
    }
  }
}
