import { Injectable } from '@nestjs/common';
import { PinoLogger } from 'nestjs-pino';
import type { SubscriptionRestart } from '@ledger/event-store';
import { Counter } from '../metrics/metrics-registry';

/**
 * Where every log subscriber (projectors, the lease cascade, live audit streams) reports a
 * resubscription: one warning line and one count per subscriber and reason
 * (ledger_subscription_restarts_total). A steady rate of them means the store keeps
 * dropping a consumer: slow handling, network, or leader changes.
 */
@Injectable()
export class SubscriptionRestarts {
  readonly counter = new Counter(['subscriber', 'reason']);

  constructor(private readonly logger: PinoLogger) {
    this.logger.setContext(SubscriptionRestarts.name);
  }

  readonly record = (restart: SubscriptionRestart): void => {
    this.counter.inc({ subscriber: restart.subscriber, reason: restart.reason });
    const { subscriber, reason, attempt, delayMs, fromPosition } = restart;
    this.logger.warn(
      { subscriber, reason, attempt, delayMs, fromPosition, ...(restart.error !== undefined ? { err: restart.error } : {}) },
      'log subscription %s; resubscribing from the checkpoint',
      reason === 'ended' ? 'ended by the store' : 'failed',
    );
  };
}
