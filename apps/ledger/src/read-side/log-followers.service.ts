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
  /** Events of the log it has not processed yet. */
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

  /** The head is read first, so a follower that moves meanwhile shows no lag rather than a negative one. */
  async snapshot(): Promise<{ head: number; followers: LogFollower[] }> {
    const head = await this.store.headPosition();
    const positions: [LogFollowerName, number][] = [
      ['ledger-view', this.views.view.position],
      ['audit-index', this.audit.position],
      ...(this.cascade.running ? [['lease-cascade', this.cascade.position] as [LogFollowerName, number]] : []),
    ];
    return { head, followers: positions.map(([name, position]) => ({ name, position, lag: Math.max(0, head - position) })) };
  }
}
