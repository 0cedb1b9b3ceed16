import { closeSync, fstatSync, statSync } from 'node:fs';
import { NotALeaseFile, type LeaseFileProblem, type LeaseRecord } from '@ledger/lease-files';
import { FINGERPRINT_BYTES, identityOf, type FileIdentity } from './file-identity';
import { describeFileError } from './open-file';

export type JournalPosition = FileIdentity & { offset: number };

export type JournalStep =
  /** New records (possibly none, when only the position moved). `complete`: the server's whole state, read again from scratch. */
  | { kind: 'read'; records: LeaseRecord[]; position: JournalPosition; complete: boolean }
  | { kind: 'idle' }
  /** The file cannot be followed now (missing, unreadable, not a lease file): why, in words. */
  | { kind: 'waiting'; reason: string };

export interface JournalEvents {
  problem(problem: LeaseFileProblem): void;
  notice(message: string, details: Record<string, unknown>): void;
  /** An entry left out on purpose (a delegated prefix, a DHCPv6 client without a MAC), by why. */
  ignored?(reason: string): void;
}

/** The file a journal reads now: its descriptor, the name it was opened by, and which file it is. */
export interface FollowedFile {
  fd: number;
  name: string;
  identity: FileIdentity;
}

/**
 * What following a DHCP server's lease database has in common, whatever the server: one
 * file open at a time, known by identity rather than name; a position that is that
 * identity and how far the file was read; and a file that cannot be read now closed, its
 * position kept, so the next look finds it again (or its replacement) by identity. Each
 * server's journal says how it finds its file, reads it and follows its rotations.
 */
export abstract class FollowedJournal<Open extends FollowedFile> {
  protected open: Open | null = null;

  constructor(
    protected readonly path: string,
    protected resumeAt: JournalPosition | null,
    protected readonly events: JournalEvents,
  ) {}

  read(): JournalStep {
    try {
      return this.open ? this.follow(this.open) : this.attach();
    } catch (error) {
      const reason = error instanceof NotALeaseFile ? error.message : `${this.open?.name ?? this.path} ${describeFileError(error)}`;
      // Closed: the next look finds the same file again, or a replacement, by identity.
      if (this.open) this.resumeAt = this.position();
      this.close();
      return { kind: 'waiting', reason };
    }
  }

  /** Where the agent stands in the followed file; the fingerprint grows with the file up to its full length. */
  position(): JournalPosition {
    const open = this.open;
    if (!open) throw new Error('no lease file is open');
    if (open.identity.fingerprintLength < FINGERPRINT_BYTES) open.identity = identityOf(open.fd, fstatSync(open.fd));
    return { ...open.identity, offset: this.offsetOf(open) };
  }

  close(): void {
    if (this.open) closeSync(this.open.fd);
    this.open = null;
  }

  /** Finds the file to follow: the checkpointed one by identity, else the one in place. */
  protected abstract attach(): JournalStep;
  /** Reads what the open file gained since the last look, and moves on when the server did. */
  protected abstract follow(open: Open): JournalStep;
  /** How far the open file was read, past complete entries only. */
  protected abstract offsetOf(open: Open): number;

  /** Whether the followed name now holds another file than the open one: the server moved on to a new file. */
  protected nameHoldsAnotherFile(open: Open): boolean {
    let named;
    try {
      named = statSync(this.path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw error;
    }
    return named.dev !== open.identity.dev || named.ino !== open.identity.ino;
  }
}
