import { Injectable } from '@nestjs/common';
import { Streams } from '@ledger/domain';
import { eventAtOrAfter, scopedStateAt, type LedgerViewState, type PointInLog } from '@ledger/projections';
import { AuditIndexService } from '../audit-index.service';
import { positionOfPoint } from './position-of-point';

export type HistoryKey = { nodeId: string } | { ip: string } | { controller: string; model: string };

export interface ScopedViewAt {
  view: LedgerViewState;
  position: number;
  /** "Now" for time-dependent statuses: the time asked for, or when the event at `position` was recorded. */
  now: Date;
  folded: number;
  streams: number;
}

/**
 * Time travel for one node, address or model: finds the streams that hold its history
 * (from the audit index) and folds only those, so the answer costs what that history
 * costs, not what the whole ledger does.
 */
@Injectable()
export class ScopedTimeTravelService {
  constructor(private readonly audit: AuditIndexService) {}

  async viewAt(key: HistoryKey, point: PointInLog): Promise<ScopedViewAt> {
    const position = await positionOfPoint(this.audit.log, point);
    // The scope is read from the audit index: it must have seen the position first.
    await this.audit.atLeast(position);
    const { nodeIds, ips } = this.audit.reader.scopeOf(key, position);
    if ('ip' in key && !ips.includes(key.ip)) ips.push(key.ip);
    const streams = [...nodeIds.map(Streams.node), ...ips.map(Streams.ip)];
    const result = await scopedStateAt(this.audit.log, { streams }, position);
    return { view: result.view, position, now: await this.momentOf(point, position, result.lastRecordedAt), folded: result.folded, streams: result.streams };
  }

  /** The moment a point stands for: its time, or when the log's event at that position was recorded. */
  private async momentOf(point: PointInLog, position: number, lastFolded: string | null): Promise<Date> {
    if ('time' in point) return point.time;
    const event = position > 0 ? await eventAtOrAfter(this.audit.log, position) : null;
    return new Date(event?.position === position ? event.recordedAt : (lastFolded ?? 0));
  }
}
