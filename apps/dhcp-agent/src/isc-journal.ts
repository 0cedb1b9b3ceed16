import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { IscLeaseStream } from '@ledger/lease-files';
import { identityOf, sameFile, type FileIdentity } from './file-identity';
import { FollowedJournal, type FollowedFile, type JournalEvents, type JournalPosition, type JournalStep } from './followed-journal';
import { JournalRecords } from './journal-records';
import { tryOpen } from './open-file';

/** Read at most this much per look at the file, so a huge backlog is posted in steps. */
const MAX_READ_BYTES = 4 * 1024 * 1024;

interface OpenFile extends FollowedFile {
  stream: IscLeaseStream;
}

/**
 * Follows ISC dhcpd's `dhcpd.leases`, an append-only journal of declarations, by file
 * identity and offset. dhcpd rewrites it now and then: it writes the whole current state
 * to a new file, links the old one to `dhcpd.leases~` and renames the new one into place.
 * So the followed file is read to its end, then the new one from its first byte (it holds
 * the current state: records equal to what was posted are not posted again, and the ledger
 * appends nothing for an unchanged binding). After a restart the checkpointed file is
 * found by identity under either name; when it is gone, the file in place is read whole.
 * The offset moves only past complete declarations, so a block dhcpd is still writing is
 * read again, whole, on a later look.
 */
export class IscJournal extends FollowedJournal<OpenFile> {
  private readonly sink: JournalRecords;

  constructor(
    path: string,
    resumeAt: JournalPosition | null,
    events: JournalEvents,
    private readonly now: () => string = () => new Date().toISOString(),
  ) {
    super(path, resumeAt, events);
    this.sink = new JournalRecords((problem) => this.events.problem(problem));
  }

  protected offsetOf(open: OpenFile): number {
    return open.stream.offset;
  }

  private openAt(fd: number, name: string, identity: FileIdentity, offset: number): OpenFile {
    this.sink.take();
    this.open = { fd, name, identity, stream: new IscLeaseStream(this.sink, { now: this.now(), offset }) };
    return this.open;
  }

  protected attach(): JournalStep {
    const resume = this.resumeAt;
    this.resumeAt = null;
    if (resume) {
      for (const name of [this.path, `${this.path}~`]) {
        const fd = tryOpen(name);
        if (fd === null) continue;
        const stats = fstatSync(fd);
        if (sameFile(fd, stats, resume) && stats.size >= resume.offset) {
          if (name !== this.path) this.events.notice('resuming in the backup dhcpd left of the lease file', { file: name, offset: resume.offset });
          return this.follow(this.openAt(fd, name, resume, resume.offset));
        }
        closeSync(fd);
      }
      this.events.notice('the checkpointed lease file is gone or was truncated: reading the lease file in place from its start', { file: this.path });
    }
    const fd = tryOpen(this.path);
    if (fd === null) return { kind: 'waiting', reason: `${this.path} does not exist` };
    return this.follow(this.openAt(fd, this.path, identityOf(fd, fstatSync(fd)), 0));
  }

  /** Feeds what was appended since the last look; true when anything was read. */
  private feed(open: OpenFile, size: number): boolean {
    const from = open.stream.consumed;
    const length = Math.min(size - from, MAX_READ_BYTES);
    if (length <= 0) return false;
    const buffer = Buffer.alloc(length);
    const read = readSync(open.fd, buffer, 0, length, from);
    open.stream.push(buffer.subarray(0, read));
    return read > 0;
  }

  protected follow(open: OpenFile): JournalStep {
    const stats = fstatSync(open.fd);
    if (stats.size < open.stream.consumed || (stats.size === open.stream.consumed && !sameFile(open.fd, stats, open.identity))) {
      this.events.notice('the lease file shrank under the agent (truncated): reading it again from its start', { file: open.name, size: stats.size });
      this.close();
      return this.attach();
    }
    const before = open.stream.offset;
    if (this.feed(open, stats.size) && open.stream.offset !== before) {
      return { kind: 'read', records: this.sink.take(), position: this.position(), complete: false };
    }
    if (stats.size > open.stream.consumed || !this.replaced(open)) return { kind: 'idle' };
    const next = this.follow(this.open!);
    // The old file's last blocks are posted with the new file's position, or on the next look: never dropped.
    return next.kind === 'read' ? next : { kind: 'read', records: this.sink.take(), position: this.position(), complete: false };
  }

  /** Whether dhcpd put a new file in place: if so, it is followed from its start, once the old one is read to its end. */
  private replaced(open: OpenFile): boolean {
    if (!this.nameHoldsAnotherFile(open)) return false;
    this.feed(open, fstatSync(open.fd).size);
    const left = this.sink.take();
    const fd = openSync(this.path, 'r');
    this.events.notice('following the new lease file dhcpd wrote', { file: this.path, previous: open.name, readTo: open.stream.offset });
    closeSync(open.fd);
    this.openAt(fd, this.path, identityOf(fd, fstatSync(fd)), 0);
    for (const record of left) this.sink.record(record);
    return true;
  }
}
