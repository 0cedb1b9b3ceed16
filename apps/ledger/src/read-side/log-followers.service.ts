import { Inject, Injectable } from '@nestjs/common';
import type { EventStore } from '@ledger/event-store';
import { EVENT_STORE } from '../infrastructure/injection-tokens';
import { LeaseCascadeService } from '../lease-cascade/lease-cascade.service';
import { AuditIndexService } from './audit-index.service';
import { LedgerViewService } from './ledger-view.service';

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
 */
@Injectable()
export class LogFollowers {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly views: LedgerViewService,
    private readonly audit: AuditIndexService,
    private readonly cascade: LeaseCascadeService,
  ) {}

  /**
   * Each follower's lag is counted in events, up to `cap` (positions are event numbers on
   * the embedded store but log bytes on EventStoreDB, so head minus position is no count).
   */
  async snapshot(cap: number): Promise<{ head: number; followers: LogFollower[] }> {
    const head = await this.store.headPosition();
    const positions: [LogFollowerName, number][] = [
      ['ledger-view', this.views.view.position],
      ['audit-index', this.audit.position],
      ...(this.cascade.running ? [['lease-cascade', this.cascade.position] as [LogFollowerName, number]] : []),
    ];
    const followers = await Promise.all(
      positions.map(async ([name, position]) => ({ name, position, lag: position >= head ? 0 : (await this.store.readAll({ fromPosition: position, maxCount: cap })).length })),
    );
    return { head, followers };
  }
}
