import { Injectable } from '@nestjs/common';
import { PinoLogger } from 'nestjs-pino';
import type { SubscriptionRestart } from '@ledger/event-store';
import { Counter } from 'prom-client';
import { StorageHealth } from './storage-health.service';

/**
 * Where every log subscriber (projectors, the lease cascade, live audit streams) reports a
 * resubscription: one warning line and one count per subscriber and reason
 * (ledger_subscription_restarts_total); a storage fault is reported as the storage
 * condition instead of a warning per retry. A steady rate of them means the store keeps
 * dropping a consumer: slow handling, network, or leader changes.
 */
@Injectable()
export class SubscriptionRestarts {
  /** Registered on /metrics by LedgerMetrics. */
  readonly counter = new Counter({
    name: 'ledger_subscription_restarts_total',
    help: 'Resubscriptions to the log after a subscription failed (reason=error) or was ended by the store (reason=ended), by subscriber.',
    labelNames: ['subscriber', 'reason'],
    registers: [],
  });

  constructor(
    private readonly logger: PinoLogger,
    private readonly storage: StorageHealth,
  ) {
    this.logger.setContext(SubscriptionRestarts.name);
  }

  /** `correlationId`: the request whose subscription this is (a live audit stream), if any. */
  readonly record = (restart: SubscriptionRestart, correlationId?: string): void => {
    this.counter.inc({ subscriber: restart.subscriber, reason: restart.reason });
    // A write the disk refused (a projector's page on a full disk) is the storage condition,
    // which StorageHealth says once when it starts and once when it ends: not a line per retry.
    if (restart.reason === 'error' && this.storage.report(restart.error, 'read-models', correlationId)) return;
    const { subscriber, reason, attempt, delayMs, fromPosition } = restart;
    this.logger.warn(
      { correlationId, subscriber, reason, attempt, delayMs, fromPosition, ...(restart.error !== undefined ? { err: restart.error } : {}) },
      'log subscription %s; resubscribing from the checkpoint',
      reason === 'ended' ? 'ended by the store' : 'failed',
    );
  };
}
