import { Inject, Injectable } from '@nestjs/common';
import { HealthIndicatorService, type HealthIndicatorResult } from '@nestjs/terminus';
import type { EventStore } from '@ledger/event-store';
import { EVENT_STORE, LEDGER_CONFIG } from '../infrastructure/injection-tokens';
import type { LedgerConfig } from '../config/ledger-config';
import { LogFollowers } from '../infrastructure/log-followers';
import { StorageHealth } from '../infrastructure/storage-health.service';

/** A store that has not answered in this long is not answering (a remote store may hang rather than fail). */
const STORE_ANSWER_MS = 2_000;

const withinTime = <T>(work: Promise<T>, ms: number): Promise<T> => {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
};

/**
 * What readiness means for the ledger: the store answers and can write, and everything that follows
 * the log (the read models, the lease cascade) trails it by at most
 * LEDGER_READY_MAX_LAG_EVENTS, so answers are current and orphaned leases are released.
 */
@Injectable()
export class ReadinessIndicators {
  constructor(
    private readonly indicators: HealthIndicatorService,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(LEDGER_CONFIG) private readonly config: LedgerConfig,
    private readonly followers: LogFollowers,
    private readonly storage: StorageHealth,
  ) {}

  async storeAnswers(): Promise<HealthIndicatorResult> {
    const check = this.indicators.check('store');
    try {
      return check.up({ head: await withinTime(this.store.headPosition(), STORE_ANSWER_MS) });
    } catch (error) {
      return check.down({ message: `the store does not answer: ${error instanceof Error ? error.message : String(error)}` });
    }
  }

  /** The disk takes writes (StorageHealth: not full, not read-only, the store file not replaced). */
  storageWritable(): HealthIndicatorResult {
    const check = this.indicators.check('storage');
    const fault = this.storage.current;
    if (!fault) return check.up({ writable: true });
    return check.down({ writable: false, code: fault.code, component: fault.component, message: fault.message, since: fault.since.toISOString() });
  }

  /** One indicator per follower; a store that does not answer leaves them unjudged (the store indicator says why). */
  async logFollowersCurrent(): Promise<HealthIndicatorResult> {
    let snapshot: Awaited<ReturnType<LogFollowers['snapshot']>>;
    try {
      // Counted one past the bound: enough to tell over from not.
      snapshot = await withinTime(this.followers.snapshot(this.config.readyMaxLagEvents + 1), STORE_ANSWER_MS);
    } catch {
      return {};
    }
    const bound = this.config.readyMaxLagEvents;
    const results = snapshot.followers.map(({ name, position, lag }) => {
      const check = this.indicators.check(name);
      return lag <= bound ? check.up({ position, lag }) : check.down({ position, lag, message: `more than ${bound} events behind the log` });
    });
    return Object.assign({}, ...results) as HealthIndicatorResult;
  }
}
