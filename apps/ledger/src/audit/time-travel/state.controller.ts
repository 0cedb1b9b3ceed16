import { Controller, Get, Query } from '@nestjs/common';
import { parsePointInLog } from '@ledger/projections';
import { LedgerViewService } from '../../read-models/ledger-view.service';
import { TimeTravelService } from './time-travel.service';
import { presentState } from '@ledger/projections';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { minPositionOf } from '../../http/min-position.query.dto';
import { DEFAULT_STATE_LIMIT, StateQueryDto } from './state.query.dto';
import { StateResponseDto } from './state.response.dto';

/** Time travel: every read model as it stood at a time or a global position. */
@ApiTags('audit and time travel')
@Controller('v1/state')
export class StateController {
  constructor(
    private readonly travel: TimeTravelService,
    private readonly views: LedgerViewService,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Every read model as it stood at a time or a global position (incident review)' })
  @ApiOkResponse({ type: StateResponseDto })
  async state(@Query() query: StateQueryDto) {
    // The DTO has checked `at` is a point of the log.
    const point = parsePointInLog(query.at)!;
    const nodeId = query.nodeId;
    const limit = query.limit === undefined ? DEFAULT_STATE_LIMIT : Number(query.limit);
    const after = query.after;
    await this.views.atLeast(minPositionOf(query));
    const { view, position, now, snapshot, folded } = await this.travel.viewAt(point);
    return { at: now.toISOString(), position, fromSnapshot: snapshot, folded, ...presentState(view, now, { nodeId }, { limit, after }) };
  }
}
