import type { LeaseObservation } from '@ledger/lease-files';
import type { Logger } from 'pino';
import { KeaControl } from './kea-control';
import { KeaLeases, type KeaHeld } from './kea-leases';
import { PendingReclaims, type PendingReclaim } from './pending-reclaims';
import { ReclaimRecorder } from './reclaim-recorder';
import type { Orphan, ReclaimServer } from './reclaimer';

/**
 * Reclaims at Kea through its control socket (lease_cmds), and records each in the ledger.
 *
 * The record is posted after the delete, never before: the ledger records what happened,
 * and a delete Kea refused or never received must not read as a reclaim. What bridges the
 * gap is an entry in the agent's state (PendingReclaims), written durably before the
 * delete and removed once the ledger has the record. So an agent killed between the
 * delete and the record finds, on restart:
 * - in the journal it follows: Kea's row of the deletion, which it has not posted yet (its
 *   checkpoint moves only after a post). Before posting any record of an address with an
 *   entry, it records the reclaim first (beforePost), so the ledger reads the reclaim, then
 *   Kea's row, which then appends nothing;
 * - at Kea (settle, at the start of each round): an entry whose address Kea still holds for
 *   the same MAC was never deleted (killed before the delete): it is dropped, and the
 *   address is judged again like any orphan. One Kea no longer holds for that MAC was
 *   deleted: it is recorded. (A lease that ran out at Kea in the milliseconds between the
 *   entry and the delete would be recorded as reclaimed: the address was freed either way.)
 * The ledger appends nothing for a reclaim it has, so recording one twice is harmless.
 */
export class KeaReclaims implements ReclaimServer {
  readonly name = 'Kea';
  private readonly kea: KeaLeases;
  private readonly pending: PendingReclaims;
  private readonly recorder: ReclaimRecorder;
  reclaimed = 0;

  constructor(
    options: { ledgerUrl: string; apiKey: string | null; source: string; keaSocket: string; leases: string; stateDir: string },
    private readonly log: Logger,
  ) {
    this.kea = new KeaLeases(new KeaControl(options.keaSocket), options.leases);
    this.pending = new PendingReclaims(options.stateDir, options.source);
    this.recorder = new ReclaimRecorder(options, log);
  }

  serves(ip: string): boolean {
    return this.kea.serves(ip);
  }

  holder(ip: string): Promise<KeaHeld | null> {
    return this.kea.held(ip);
  }

  async free(orphan: Orphan, signal: AbortSignal): Promise<boolean> {
    const entry = { ip: orphan.ip, leaseId: orphan.leaseId, mac: orphan.mac };
    this.pending.add(entry);
    // Thrown (Kea unreachable, no answer): whether Kea deleted is unknown, so the entry stays for settle.
    const deleted = await this.kea.delete(orphan.ip);
    if (!deleted) {
      this.pending.remove(entry);
      return false;
    }
    await this.record(entry, signal, orphan.reason);
    return true;
  }

  async settle(signal: AbortSignal): Promise<void> {
    for (const entry of this.pending.all()) {
      const held = await this.kea.held(entry.ip);
      if (held?.mac === entry.mac) {
        this.pending.remove(entry);
        this.log.info({ ip: entry.ip, leaseId: entry.leaseId }, 'a reclaim left unfinished did not delete at Kea: the address is judged again');
      } else await this.record(entry, signal, null);
    }
  }

  /** Kea's own rows of a deletion an entry stands for are posted only after the reclaim is recorded. */
  async beforePost(records: LeaseObservation[], signal: AbortSignal): Promise<void> {
    for (const record of records) {
      const entry = this.pending.get(record.ip);
      if (entry && (record.mac !== entry.mac || record.state !== 'active')) await this.record(entry, signal, null);
    }
  }

  private async record(entry: PendingReclaim, signal: AbortSignal, reason: string | null): Promise<void> {
    const outcome = await this.recorder.record(entry, signal);
    const first = this.pending.remove(entry);
    if (!outcome.recorded) {
      this.log.error({ ip: entry.ip, leaseId: entry.leaseId, mac: entry.mac }, `deleted at Kea, but the ledger refuses the record of it: ${outcome.reason}`);
      return;
    }
    if (!first) return;
    this.reclaimed++;
    this.log.info(
      { ip: entry.ip, leaseId: entry.leaseId, mac: entry.mac, ...(reason ? { reason } : {}), position: outcome.position },
      'reclaimed at Kea: the lease owner ended; recorded in the ledger',
    );
  }
}
