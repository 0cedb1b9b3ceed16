import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A real, small tmpfs for a ledger's data directory, so a full or read-only disk is the
 * real thing, not a mock. Needs root (CI runs as root). Each one is mounted on its own
 * directory under a fresh mkdtemp dir, and unmount() always leaves nothing behind.
 */
export class SmallTmpfs {
  private mounted = true;

  private constructor(
    private readonly parent: string,
    readonly dir: string,
  ) {}

  /** Why tmpfs tests cannot run here, or null if they can. Outside CI only: in CI (root) they must run. */
  static unavailableReason(): string | null {
    if (process.platform !== 'linux') return `tmpfs tests need Linux, this is ${process.platform}`;
    if (process.getuid?.() !== 0) return 'tmpfs tests need root to mount a small tmpfs (CI runs as root): SKIPPED, the storage-fault e2e tests did NOT run';
    return null;
  }

  static mount(sizeMb: number): SmallTmpfs {
    const parent = mkdtempSync(join(tmpdir(), 'ledger-tmpfs-'));
    const dir = join(parent, 'data');
    mkdirSync(dir);
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeMb}m`, 'tmpfs', dir], { stdio: 'pipe' });
    } catch (error) {
      rmSync(parent, { recursive: true, force: true });
      throw new Error(`could not mount a ${sizeMb} MB tmpfs on ${dir}: ${(error as { stderr?: Buffer }).stderr?.toString() ?? String(error)}`);
    }
    const tmpfs = new SmallTmpfs(parent, dir);
    // Even if the test process ends without its cleanup (a timeout, an uncaught error), no mount stays behind.
    process.once('exit', () => tmpfs.unmountQuietly());
    return tmpfs;
  }

  /** `mount -o remount,OPTIONS`: e.g. 'size=40m' (space comes back), 'ro', 'rw'. */
  remount(options: string): void {
    execFileSync('mount', ['-o', `remount,${options}`, this.dir], { stdio: 'pipe' });
  }

  /** Unmounts (lazily if something still holds it) and removes the temp dirs. Safe to call twice. */
  unmount(): void {
    if (this.mounted) {
      try {
        execFileSync('umount', [this.dir], { stdio: 'pipe' });
      } catch {
        execFileSync('umount', ['-l', this.dir], { stdio: 'pipe' });
      }
      this.mounted = false;
    }
    rmSync(this.parent, { recursive: true, force: true });
  }

  private unmountQuietly(): void {
    try {
      this.unmount();
    } catch {
      // Exiting anyway: nothing more to do.
    }
  }
}
