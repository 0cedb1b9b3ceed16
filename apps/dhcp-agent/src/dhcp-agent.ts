import { setTimeout as sleep } from 'node:timers/promises';
import { performance } from 'node:perf_hooks';
import { toObservation, type LeaseObservation, type LeaseRecord } from '@ledger/lease-files';
import type { Logger } from 'pino';
import type { AgentOptions } from './agent-options';
import { CheckpointFile, type AgentCheckpoint } from './agent-checkpoint';
import { IscJournal } from './isc-journal';
import { KeaJournal, type JournalEvents, type JournalStep } from './kea-journal';
import { LedgerPoster } from './ledger-poster';
import { samePosted } from './posted-records';

export interface AgentHealth {
  status: 'ok' | 'degraded';
  source: string;
  leases: string;
  /** The followed file and how far it was read and posted. */
  position: { ino: number; offset: number } | null;
  /** Why the agent cannot do its work right now (file or ledger), or null. */
  problem: string | null;
  postedRecords: number;
  refusedRecords: number;
  skippedLines: number;
  /** Well-formed entries that lease no device an address (delegated prefixes, DHCPv6 clients without a MAC): not posted. */
  ignoredEntries: number;
  /** Seconds since the last post the ledger acknowledged (monotonic), null before the first. */
  secondsSinceLastPost: number | null;
}

/**
 * The loop: read what the server appended, post what changed, then checkpoint. The
 * checkpoint moves only after the ledger acknowledged the records read up to it, so a
 * crash at any point re-reads at most what was not acknowledged, and the ledger (which
 * appends nothing for a record it has) makes that harmless.
 */
export class DhcpAgent {
  private readonly checkpoints: CheckpointFile;
  private checkpoint: AgentCheckpoint;
  private readonly journal: { read(): JournalStep; close(): void };
  private readonly poster: LedgerPoster;
  /** Why the lease file cannot be followed now, and why the ledger cannot be posted to now: either makes the agent degraded. */
  private fileProblem: string | null = null;
  private ledgerProblem: string | null = null;
  private postedRecords = 0;
  private refusedRecords = 0;
  private skippedLines = 0;
  private ignoredEntries = 0;
  /** Left out since the last log line, by why: logged once per read, not once per entry. */
  private readonly ignoredSinceLog = new Map<string, number>();
  private lastPostAt: number | null = null;

  constructor(
    private readonly options: AgentOptions,
    private readonly log: Logger,
    /** Runs before each post, with the records about to go (the reclaims at Kea record theirs first: see KeaReclaims). */
    private readonly beforePost: ((records: LeaseObservation[], signal: AbortSignal) => Promise<void>) | null = null,
  ) {
    this.checkpoints = new CheckpointFile(options.stateDir);
    this.checkpoint = this.checkpoints.load(options.source);
    const events: JournalEvents = {
      problem: (problem) => {
        this.skippedLines++;
        this.log.warn({ file: problem.file, line: problem.line }, `lease file line skipped: ${problem.reason}`);
      },
      notice: (message, details) => this.log.info(details, message),
      ignored: (reason) => {
        this.ignoredEntries++;
        this.ignoredSinceLog.set(reason, (this.ignoredSinceLog.get(reason) ?? 0) + 1);
      },
    };
    this.journal =
      options.format === 'isc' ? new IscJournal(options.leases, this.checkpoint.file, events) : new KeaJournal(options.leases, this.checkpoint.file, events);
    this.poster = new LedgerPoster(
      { url: options.ledgerUrl, apiKey: options.apiKey, source: options.source },
      {
        retrying: (reason, delayMs, correlationId) => {
          this.ledgerProblem = reason;
          this.log.warn({ correlationId, retryInMs: delayMs }, reason);
        },
        posted: (count, correlationId, position) => {
          if (this.ledgerProblem) this.log.info({ was: this.ledgerProblem }, 'the ledger takes lease records again');
          this.ledgerProblem = null;
          this.log.info({ correlationId, records: count, position }, 'posted lease records');
        },
      },
    );
  }

  health(): AgentHealth {
    const position = this.checkpoint.file;
    return {
      status: this.fileProblem || this.ledgerProblem ? 'degraded' : 'ok',
      source: this.options.source,
      leases: this.options.leases,
      position: position ? { ino: position.ino, offset: position.offset } : null,
      problem: this.ledgerProblem ?? this.fileProblem,
      postedRecords: this.postedRecords,
      refusedRecords: this.refusedRecords,
      skippedLines: this.skippedLines,
      ignoredEntries: this.ignoredEntries,
      secondsSinceLastPost: this.lastPostAt === null ? null : Math.round((performance.now() - this.lastPostAt) / 1000),
    };
  }

  async run(signal: AbortSignal): Promise<void> {
    try {
      while (!signal.aborted) {
        const step = this.journal.read();
        if (step.kind === 'read') {
          this.setFileProblem(null);
          this.logIgnored();
          await this.post(step, signal);
          continue;
        }
        this.setFileProblem(step.kind === 'waiting' ? step.reason : null);
        await sleep(this.options.pollMs, undefined, { signal }).catch(() => undefined);
      }
    } catch (error) {
      if (!signal.aborted) throw error;
    } finally {
      this.journal.close();
    }
  }

  private async post(step: Extract<JournalStep, { kind: 'read' }>, signal: AbortSignal): Promise<void> {
    const posted = this.checkpoint.posted;
    const changed: LeaseObservation[] = step.records.map(toObservation).filter((record) => !samePosted(posted[record.ip], record));
    if (step.complete) changed.push(...this.vanished(step.records));
    if (changed.length > 0) {
      await this.beforePost?.(changed, signal);
      const { refused } = await this.poster.postAll(changed, signal);
      for (const { record, reason } of refused) this.log.error({ ip: record.ip }, `the ledger refused a lease record; it is not sent again: ${reason}`);
      this.refusedRecords += refused.length;
      for (const record of changed) posted[record.ip] = record;
      this.postedRecords += changed.length - refused.length;
      this.lastPostAt = performance.now();
    }
    this.checkpoint.file = step.position;
    this.checkpoints.save(this.checkpoint);
  }

  /**
   * What the server holds for an address, as far as its lease database was read and posted:
   * the MAC of an active binding not past its end, or null. For a server the agent has no
   * other way to ask (ISC dhcpd).
   */
  heldAtServer(ip: string, now = Date.now()): { mac: string } | null {
    const record = this.checkpoint.posted[ip];
    if (!record || record.state !== 'active') return null;
    return record.ends === undefined || record.ends === null || Date.parse(record.ends) > now ? { mac: record.mac } : null;
  }

  /** Addresses the agent last posted as held that the whole database no longer has: Kea deleted them while the agent was away. */
  private vanished(records: LeaseRecord[]): LeaseObservation[] {
    const present = new Set(records.map((record) => record.ip));
    return Object.values(this.checkpoint.posted)
      .filter((record) => record.state === 'active' && !present.has(record.ip))
      .map((record) => ({ ip: record.ip, mac: record.mac, state: 'expired' as const }));
  }

  private logIgnored(): void {
    if (this.ignoredSinceLog.size === 0) return;
    this.log.info({ ignored: Object.fromEntries(this.ignoredSinceLog) }, 'lease file entries left out: they lease no device an address');
    this.ignoredSinceLog.clear();
  }

  /** Logged when it changes, not at every look at the file. */
  private setFileProblem(problem: string | null): void {
    if (problem !== null && problem !== this.fileProblem) this.log.error({ leases: this.options.leases }, `cannot follow the lease file: ${problem}`);
    if (problem === null && this.fileProblem !== null) this.log.info({ was: this.fileProblem }, 'following the lease file again');
    this.fileProblem = problem;
  }
}
