import { BadRequestException, Controller, Get, Query } from '@nestjs/common';
import { parsePointInLog } from '@ledger/projections';
import { NodeIdParam, parseMinPosition } from '../../http/params';
import { integerParam, matching, queryParams } from '../../http/query-params';
import { LedgerViewService } from '../../read-models/ledger-view.service';
import { TimeTravelService } from './time-travel.service';
import { presentState } from '@ledger/projections';

/** Entities per page of a whole-ledger state document: a large ledger is sent in pieces. */
const DEFAULT_STATE_LIMIT = 1_000;
const MAX_STATE_LIMIT = 10_000;

/** Time travel: every read model as it stood at a time or a global position. */
@Controller('v1/state')
export class StateController {
  private readonly nodeIdParam = new NodeIdParam();

  constructor(
    private readonly travel: TimeTravelService,
    private readonly views: LedgerViewService,
  ) {}

  @Get()
  async state(@Query() query: Record<string, unknown>) {
    const params = queryParams(query, ['at', 'nodeId', 'minPosition', 'limit', 'after']);
    if (params.at === undefined) throw new BadRequestException({ code: 'invalid_request', message: 'at is required: an ISO-8601 time or a global position' });
    const point = parsePointInLog(params.at);
    if (!point)
      throw new BadRequestException({ code: 'invalid_request', message: 'at must be an ISO-8601 time (2025-01-01T12:00:00Z) or a global position (digits)' });
    const nodeId = params.nodeId === undefined ? undefined : this.nodeIdParam.transform(params.nodeId);
    const limit = integerParam('limit', params.limit, 1, MAX_STATE_LIMIT) ?? DEFAULT_STATE_LIMIT;
    const after = matching('after', params.after, /^(nodes|allocations|devices|leases):[^\u0000-\u001f]{1,600}$/, 'a cursor from a previous page (next)');
    await this.views.atLeast(parseMinPosition(params.minPosition));
    const { view, position, now, snapshot, folded } = await this.travel.viewAt(point);
    return { at: now.toISOString(), position, fromSnapshot: snapshot, folded, ...presentState(view, now, { nodeId }, { limit, after }) };
  }
}
