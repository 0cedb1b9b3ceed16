import { Inject, Injectable } from '@nestjs/common';
import type { EventStore } from '@ledger/event-store';
import { EVENT_STORE } from './injection-tokens';

export type LogFollowerName = 'ledger-view' | 'audit-index' | 'lease-cascade';

export interface LogFollower {
  name: LogFollowerName;
  position: number;
  /** Events of the log it has not processed yet (counted up to the cap asked for). */
  lag: number;
}

/**
 * Everything in this process that follows the log (the read models and the lease
 * cascade) and how far each trails the store's head: read by /metrics and by readiness.
 * Each follower registers itself when it starts (they live in different feature modules,
 * which may not import one another), so only the followers this process runs are listed.
 */
@Injectable()
export class LogFollowers {
  private readonly positions = new Map<LogFollowerName, () => number>();

  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  /** Called by a follower as it starts: `position` reads how far it has processed the log. */
  register(name: LogFollowerName, position: () => number): void {
    this.positions.set(name, position);
  }

  /**
   * Each follower's lag is counted in events, up to `cap` (positions are event numbers on
   * the embedded store but log bytes on EventStoreDB, so head minus position is no count).
   */
  async snapshot(cap: number): Promise<{ head: number; followers: LogFollower[] }> {
    const head = await this.store.headPosition();
    const followers = await Promise.all(
      [...this.positions].map(async ([name, read]) => {
        const position = read();
        const lag = position >= head ? 0 : (await this.store.readAll({ fromPosition: position, maxCount: cap })).length;
        return { name, position, lag };
      }),
    );
    return { head, followers };
  }
}
