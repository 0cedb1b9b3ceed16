import { Inject, Injectable } from '@nestjs/common';
import { ledgerProjection, stateAt, type LedgerViewState, type PointInLog } from '@ledger/projections';
import type { EventStore } from '@ledger/event-store';
import { EVENT_STORE } from '../../infrastructure/injection-tokens';
import { LedgerViewService } from '../../read-models/ledger-view.service';
import { positionOfPoint } from './position-of-point';

export interface ViewAt {
  view: LedgerViewState;
  /** The position asked for (or the last one recorded by the time asked for). */
  position: number;
  /** "Now" for statuses that depend on time: the time asked for, or when the event at `position` was recorded. */
  now: Date;
  snapshot: number | null;
  folded: number;
}

/** Every read model as it stood at a point of the log: the same fold, stopped there. */
@Injectable()
export class TimeTravelService {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly views: LedgerViewService,
  ) {}

  async viewAt(point: PointInLog): Promise<ViewAt> {
    const position = await positionOfPoint(this.store, point);
    const result = await stateAt(this.store, ledgerProjection, position, this.views.snapshots);
    const now = 'time' in point ? point.time : new Date(result.lastRecordedAt ?? 0);
    return { view: result.state, position, now, snapshot: result.snapshot, folded: result.folded };
  }
}
