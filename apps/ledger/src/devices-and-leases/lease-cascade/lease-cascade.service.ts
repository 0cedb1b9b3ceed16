import { BeforeApplicationShutdown, Inject, Injectable, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { PinoLogger } from 'nestjs-pino';
import { CheckpointStore, LEASE_CASCADE_CHECKPOINT, LeaseCascadeRunner, readModelFile, type CascadeRelease, type LeaseReleaser } from '@ledger/projections';
import type { EventStore, RecordedEvent } from '@ledger/event-store';
import { CLOCK, EVENT_STORE, LEDGER_CONFIG } from '../../infrastructure/injection-tokens';
import type { LedgerConfig } from '../../config/ledger-config';
import type { Clock } from '../../infrastructure/clock';
import { LeaseCommandService } from '../../application/lease-command.service';
import { LedgerRefusal } from '../../application/ledger-refusal';
import { systemContext } from '../../application/request-context';
import { StorageHealth } from '../../infrastructure/storage-health.service';
import { SubscriptionRestarts } from '../../infrastructure/subscription-restarts';
import { ReadModelWriteDeferrals } from '../../infrastructure/read-model-write-deferrals';
import { LogFollowers } from '../../infrastructure/log-followers';

/**
 * The lease cascade process manager in the app (seed 2, invariant 5): when an allocation
 * or device ends, every lease it holds is released by a `ReleaseLease` on its address,
 * caused by the ending event and acted by `system:lease-cascade`. The pure part and the
 * crash-safe runner live in @ledger/projections; this is its lifecycle and its hands.
 */
@Injectable()
export class LeaseCascadeService implements LeaseReleaser, OnModuleInit, BeforeApplicationShutdown, OnApplicationShutdown {
  private readonly checkpoints: CheckpointStore;
  private readonly runner: LeaseCascadeRunner;

  constructor(
    @Inject(EVENT_STORE) store: EventStore,
    @Inject(LEDGER_CONFIG) private readonly config: LedgerConfig,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly leases: LeaseCommandService,
    private readonly logger: PinoLogger,
    private readonly storage: StorageHealth,
    restarts: SubscriptionRestarts,
    deferrals: ReadModelWriteDeferrals,
    followers: LogFollowers,
  ) {
    this.logger.setContext(LeaseCascadeService.name);
    this.checkpoints = CheckpointStore.open(readModelFile(config));
    this.runner = new LeaseCascadeRunner(store, this.checkpoints, this, {
      clock,
      onError: (error, at) =>
        this.storage.report(error, 'read-models') ?? this.logger.error({ err: error, ...at }, 'lease cascade: a release failed; retrying'),
      onRestart: restarts.record,
      onCheckpointDeferred: deferrals.of(`${LEASE_CASCADE_CHECKPOINT}/checkpoint`),
    });
    // Readiness waits on the cascade only in a process that runs it (LEDGER_LEASE_CASCADE).
    if (config.leaseCascade) followers.register('lease-cascade', () => this.runner.position);
  }

  onModuleInit(): void {
    if (!this.config.leaseCascade) {
      this.logger.warn('lease cascade is off in this process (LEDGER_LEASE_CASCADE=off): leases of ended owners stay orphaned until a process runs it');
      return;
    }
    this.runner.start();
  }

  /** Stops before shutdown, while the store it appends to is still open. */
  async beforeApplicationShutdown(): Promise<void> {
    await this.runner.stop();
  }

  onApplicationShutdown(): void {
    this.checkpoints.close();
  }

  async release(release: CascadeRelease, cause: RecordedEvent): Promise<void> {
    const context = systemContext('lease-cascade', cause.metadata.correlationId);
    try {
      const { reply, position } = await this.leases.execute(
        release.ip,
        () => ({
          type: 'ReleaseLease',
          ip: release.ip,
          leaseId: release.leaseId,
          reason: 'owner_ended',
          cause: release.cause,
          now: this.clock().toISOString(),
        }),
        context,
        { causationId: cause.id },
      );
      if (position !== null) this.logger.info({ ip: release.ip, leaseId: release.leaseId, cause: release.cause, position }, 'lease cascade released a lease');
      else this.logger.debug({ ip: release.ip, leaseId: release.leaseId, status: reply.status }, 'lease cascade: already released');
    } catch (error) {
      // A refusal is a decision: asking again cannot change it, and must not wedge the cascade.
      if (!(error instanceof LedgerRefusal)) throw error;
      this.logger.warn(
        { ip: release.ip, leaseId: release.leaseId, code: error.refusal.code, reason: error.refusal.message },
        'lease cascade: release refused; skipped',
      );
    }
  }
}
