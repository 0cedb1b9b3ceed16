import { setTimeout as sleep } from 'node:timers/promises';
import { performance } from 'node:perf_hooks';
import { createLedgerClient, type LedgerApi } from '@ledger/client';
import type { Logger } from 'pino';
import { KeaControl } from './kea-control';
import { KeaLeases } from './kea-leases';

export interface ReclaimStatus {
  /** Addresses deleted at Kea since the agent started. */
  reclaimed: number;
  /** Orphaned addresses waiting out their grace period. */
  waiting: number;
  /** Why reclaiming cannot go on right now (Kea's socket or the ledger), or null. */
  problem: string | null;
}

/** A lease the ledger ended because its owner ended, while a DHCP server still holds the address. */
interface Orphan {
  ip: string;
  leaseId: string;
  mac: string;
}

/**
 * Frees at Kea the addresses the ledger judges orphaned because their owner ended (a
 * released or torn-down machine, a removed device), once they stayed so for the grace
 * period (on the monotonic clock), and only while Kea still holds each for the MAC the
 * ledger leased it to: a binding Kea gave to another client since is not touched. A
 * binding the ledger never granted is not reclaimed: nobody here knows whose it is.
 * Kea writes the deletion to its lease file, which the agent follows and posts, so the
 * ledger records the end with the agent as actor. Nothing is lost when Kea or the ledger
 * refuses: the address is simply tried again at the next round.
 */
export class Reclaimer {
  private readonly api: LedgerApi;
  private readonly kea: KeaLeases;
  /** When each orphan (by address and lease) was first seen, in performance.now() milliseconds. */
  private readonly firstSeen = new Map<string, number>();
  /** Orphans Kea holds for another MAC: reported once, not asked again while they stay. */
  private readonly heldByOther = new Set<string>();
  private reclaimed = 0;
  private problem: string | null = null;

  constructor(
    private readonly options: { ledgerUrl: string; apiKey: string | null; leases: string; keaSocket: string; graceMs: number; intervalMs: number },
    private readonly log: Logger,
  ) {
    this.api = createLedgerClient({ baseUrl: options.ledgerUrl, apiKey: options.apiKey });
    this.kea = new KeaLeases(new KeaControl(options.keaSocket), options.leases);
  }

  status(): ReclaimStatus {
    return { reclaimed: this.reclaimed, waiting: this.firstSeen.size, problem: this.problem };
  }

  async run(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      try {
        await this.round(signal);
        this.setProblem(null);
      } catch (error) {
        if (signal.aborted) break;
        this.setProblem(error instanceof Error ? error.message : String(error));
      }
      await sleep(this.options.intervalMs, undefined, { signal }).catch(() => undefined);
    }
  }

  /** One look at the ledger's orphans: the new ones start their grace, those past it are reclaimed. */
  async round(signal: AbortSignal): Promise<void> {
    const orphans = await this.orphans(signal);
    const now = performance.now();
    const keys = new Set(orphans.map((orphan) => `${orphan.ip} ${orphan.leaseId}`));
    for (const key of [...this.firstSeen.keys()]) if (!keys.has(key)) this.firstSeen.delete(key);
    for (const key of [...this.heldByOther]) if (!keys.has(key)) this.heldByOther.delete(key);
    for (const orphan of orphans) {
      const key = `${orphan.ip} ${orphan.leaseId}`;
      const since = this.firstSeen.get(key) ?? now;
      if (!this.firstSeen.has(key)) this.log.info({ ip: orphan.ip, leaseId: orphan.leaseId, graceMs: this.options.graceMs }, 'orphaned: its owner ended');
      this.firstSeen.set(key, since);
      if (now - since < this.options.graceMs || this.heldByOther.has(key)) continue;
      await this.reclaim(orphan, key);
    }
  }

  private async reclaim(orphan: Orphan, key: string): Promise<void> {
    const held = await this.kea.held(orphan.ip);
    if (held === null) {
      this.log.info({ ip: orphan.ip, leaseId: orphan.leaseId }, 'not reclaimed: Kea holds no lease for the address');
      this.firstSeen.delete(key);
      return;
    }
    if (held.mac !== orphan.mac) {
      this.heldByOther.add(key);
      this.log.info(
        { ip: orphan.ip, leaseId: orphan.leaseId, leasedTo: orphan.mac, keaHolds: held.mac },
        'not reclaimed: Kea holds the address for another MAC',
      );
      return;
    }
    const deleted = await this.kea.delete(orphan.ip);
    this.firstSeen.delete(key);
    if (!deleted) return;
    this.reclaimed++;
    this.log.info({ ip: orphan.ip, leaseId: orphan.leaseId, mac: orphan.mac, reason: 'owner_ended' }, 'reclaimed at Kea: the lease owner ended');
  }

  private async orphans(signal: AbortSignal): Promise<Orphan[]> {
    const { data, response } = await this.api
      .GET('/v1/leases', { params: { query: { status: 'orphaned' } }, signal: AbortSignal.any([signal, AbortSignal.timeout(30_000)]) })
      .catch((error: unknown) => {
        signal.throwIfAborted();
        const cause = (error as { cause?: { code?: string } }).cause?.code;
        throw new Error(`cannot reach the ledger at ${this.options.ledgerUrl} (${cause ?? (error instanceof Error ? error.message : String(error))})`);
      });
    if (!response.ok || !data) throw new Error(`the ledger answered ${response.status} to the list of orphaned leases`);
    const orphans: Orphan[] = [];
    for (const lease of data.leases) {
      // Only an ended lease whose owner ended: an active one is still being cascaded, a leaseless one was never granted.
      if (lease.leaseId === null || lease.leaseId === undefined || lease.ended?.reason !== 'owner_ended' || !lease.mac) continue;
      // An address of the other family is the other DHCP server's (lease4-del and lease6-del are two servers' commands).
      if (!this.kea.serves(lease.ip)) continue;
      orphans.push({ ip: lease.ip, leaseId: lease.leaseId, mac: lease.mac.toLowerCase() });
    }
    return orphans;
  }

  private setProblem(problem: string | null): void {
    if (problem !== null && problem !== this.problem) this.log.error({ keaSocket: this.options.keaSocket }, `cannot reclaim: ${problem}`);
    if (problem === null && this.problem !== null) this.log.info({ was: this.problem }, 'reclaiming again');
    this.problem = problem;
  }
}
