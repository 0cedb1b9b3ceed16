import { Injectable } from '@nestjs/common';
import { ledgerProjection, stateAt, type LedgerViewState, type PointInLog } from '@ledger/projections';
import { LedgerViewService } from '../../read-models/ledger-view.service';
import { AuditIndexService } from '../audit-index.service';
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
    private readonly views: LedgerViewService,
    /** Its log finds a position by time, and the time of a position, through the audit index. */
    private readonly audit: AuditIndexService,
  ) {}

  async viewAt(point: PointInLog): Promise<ViewAt> {
    const position = await positionOfPoint(this.audit.log, point);
    const result = await stateAt(this.audit.log, ledgerProjection, position, this.views.snapshots);
    const now = 'time' in point ? point.time : new Date(result.lastRecordedAt ?? 0);
    return { view: result.state, position, now, snapshot: result.snapshot, folded: result.folded };
  }
}
