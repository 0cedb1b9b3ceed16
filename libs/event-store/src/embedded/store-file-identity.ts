import { statSync } from 'node:fs';
import { StorageFaultError } from '../storage-fault';

/**
 * The identity (device and inode) of the file a connection opened. SQLite keeps writing
 * to the inode it opened even after the file was deleted or another file was moved into
 * its place, so a write that nobody will ever read again would be acknowledged. Checked
 * before each write transaction: a missing or different file refuses the write.
 */
export class StoreFileIdentity {
  private readonly opened: { dev: number; ino: number } | null;

  constructor(private readonly file: string) {
    this.opened = file === ':memory:' || file === '' ? null : this.current();
  }

  /** Throws StorageFaultError('storage_replaced') unless the path still names the file that was opened. */
  assertUnchanged(): void {
    if (!this.opened) return;
    const now = this.current();
    if (!now) throw new StorageFaultError('storage_replaced', `${this.file} no longer exists: it was removed under the running ledger; restart the ledger once the file is back`);
    if (now.dev !== this.opened.dev || now.ino !== this.opened.ino) {
      throw new StorageFaultError('storage_replaced', `${this.file} was replaced by another file under the running ledger; restart the ledger to use the new file`);
    }
  }

  private current(): { dev: number; ino: number } | null {
    const stats = statSync(this.file, { throwIfNoEntry: false });
    return stats ? { dev: stats.dev, ino: stats.ino } : null;
  }
}
