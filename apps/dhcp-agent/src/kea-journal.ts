import { closeSync, existsSync, fstatSync, openSync, readFileSync, statSync } from 'node:fs';
import { KeaLeaseParser, keaLeaseFileSet } from '@ledger/lease-files';
import { identityOf, sameFile } from './file-identity';
import { FollowedJournal, type FollowedFile, type JournalEvents, type JournalPosition, type JournalStep } from './followed-journal';
import { JournalRecords } from './journal-records';
import { readCompleteLines, readFirstLine } from './line-reader';
import { tryOpen } from './open-file';

export type { JournalEvents, JournalPosition, JournalStep } from './followed-journal';

interface OpenFile extends FollowedFile {
  offset: number;
}

/**
 * Follows Kea's memfile lease database (kea-leases4.csv) as an append-only journal, by
 * file identity and offset, the way log shippers follow a rotated log. Kea appends a row
 * per change; its lease file cleanup (kea-lfc) renames the file to `.2` and starts a new
 * one, then merges `.2` and `.1` into `.completed` and moves that to `.1`. So:
 * - the file being followed is read to its end before the new one is started, from its
 *   first byte (the rename keeps the open file readable);
 * - after a restart, the checkpointed file is found by identity under any of those names
 *   and read on from the checkpointed offset;
 * - when it is gone (cleaned up while the agent was down) or was truncated, the whole
 *   database is read again and reported as complete, so the caller can post what changed,
 *   including addresses Kea no longer has at all.
 */
export class KeaJournal extends FollowedJournal<OpenFile> {
  private readonly parser: KeaLeaseParser;
  private readonly sink: JournalRecords;

  constructor(path: string, resumeAt: JournalPosition | null, events: JournalEvents) {
    super(path, resumeAt, events);
    this.sink = new JournalRecords(
      (problem) => this.events.problem(problem),
      (reason) => this.events.ignored?.(reason),
    );
    this.parser = new KeaLeaseParser(this.sink);
  }

  protected offsetOf(open: OpenFile): number {
    return open.offset;
  }

  protected attach(): JournalStep {
    const resume = this.resumeAt;
    if (resume) {
      for (const name of [this.path, `${this.path}.2`, `${this.path}.1`, `${this.path}.completed`]) {
        const fd = tryOpen(name);
        if (fd === null) continue;
        const stats = fstatSync(fd);
        if (sameFile(fd, stats, resume) && stats.size >= resume.offset) {
          this.open = {
            fd,
            name,
            identity: { dev: resume.dev, ino: resume.ino, fingerprint: resume.fingerprint, fingerprintLength: resume.fingerprintLength },
            offset: resume.offset,
          };
          this.resumeAt = null;
          this.parser.startFile(name);
          const header = resume.offset > 0 ? readFirstLine(fd) : null;
          if (header !== null) this.parser.pushLine(header);
          if (name !== this.path) this.events.notice('resuming in the rotated lease file', { file: name, offset: resume.offset });
          return this.follow(this.open);
        }
        closeSync(fd);
      }
      this.events.notice('the checkpointed lease file is gone or was truncated: reading the whole lease database again', { file: this.path });
      this.resumeAt = null;
    }
    return this.readEverything();
  }

  private readEverything(): JournalStep {
    const files = keaLeaseFileSet(this.path, existsSync);
    if (!files.includes(this.path)) {
      statSync(this.path);
      return { kind: 'waiting', reason: `${this.path} does not exist` };
    }
    this.sink.take();
    for (const name of files.filter((file) => file !== this.path)) {
      this.parser.startFile(name);
      for (const line of readFileSync(name, 'utf8').split('\n')) this.parser.pushLine(line);
      this.parser.endFile();
    }
    const fd = openSync(this.path, 'r');
    this.open = { fd, name: this.path, identity: identityOf(fd, fstatSync(fd)), offset: 0 };
    this.parser.startFile(this.path);
    for (let size = fstatSync(fd).size; this.open.offset < size; size = fstatSync(fd).size) {
      const { lines, offset } = readCompleteLines(fd, this.open.offset, size);
      if (offset === this.open.offset) break;
      for (const line of lines) this.parser.pushLine(line);
      this.open.offset = offset;
    }
    return { kind: 'read', records: this.sink.take(), position: this.position(), complete: true };
  }

  protected follow(open: OpenFile): JournalStep {
    const stats = fstatSync(open.fd);
    const size = stats.size;
    // Shorter than what was read, or rewritten in place (its first bytes changed): a new file under the same inode.
    if (size < open.offset || (size === open.offset && !sameFile(open.fd, stats, open.identity))) {
      this.events.notice('the lease file shrank under the agent (truncated): reading the whole lease database again', {
        file: open.name,
        offset: open.offset,
        size,
      });
      this.close();
      return this.readEverything();
    }
    if (size > open.offset) {
      const { lines, offset } = readCompleteLines(open.fd, open.offset, size);
      for (const line of lines) this.parser.pushLine(line);
      if (offset !== open.offset) {
        open.offset = offset;
        return { kind: 'read', records: this.sink.take(), position: this.position(), complete: false };
      }
    }
    if (!this.rotated(open)) return { kind: 'idle' };
    const next = this.follow(this.open!);
    // The old file's last rows are posted with the new file's position, or on the next look: never dropped.
    return next.kind === 'read' ? next : { kind: 'read', records: this.sink.take(), position: this.position(), complete: false };
  }

  /** Whether the name now holds another file (kea-lfc started a new one): if so, that one is opened from its start. */
  private rotated(open: OpenFile): boolean {
    if (!this.nameHoldsAnotherFile(open)) return false;
    // Read the old file to its very end once more: the server may have written to it just before it moved on.
    const tail = readCompleteLines(open.fd, open.offset, fstatSync(open.fd).size);
    for (const line of tail.lines) this.parser.pushLine(line);
    const fd = openSync(this.path, 'r');
    this.events.notice('following the new lease file', { file: this.path, previous: open.name, readTo: tail.offset });
    closeSync(open.fd);
    this.open = { fd, name: this.path, identity: identityOf(fd, fstatSync(fd)), offset: 0 };
    this.parser.startFile(this.path);
    return true;
  }
}
