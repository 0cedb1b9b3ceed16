import { Controller, Get, Inject, NotFoundException, Param, Query } from '@nestjs/common';
import { parsePointInLog, type PointInLog } from '@ledger/projections';
import type { EventStore } from '@ledger/event-store';
import { EVENT_STORE } from '../../infrastructure/injection-tokens';
import { IpParam } from '../../http/ip-param';
import { NodeIdParam } from '../../http/params';
import { matching } from '../../http/query-params';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { ApiIpParam, ApiNodeIdParam } from '../../openapi/api-params';
import { ScopedStateQueryDto } from './scoped-state.query.dto';
import { ScopedStateResponseDto } from './scoped-state.response.dto';
import { ScopedTimeTravelService, type HistoryKey } from './scoped-time-travel.service';
import { LedgerViewService } from '../../read-models/ledger-view.service';
import { presentScopedState } from './scoped-state.presenter';

const CONSUMER_PART = /^[^\u0000-\u001f/]{1,128}$/;

/**
 * One node's, address's or model's state at a time or position, folded from its own
 * streams only (the review page asks this at every cursor move). `at` defaults to now.
 */
const consumerPart = (name: 'controller' | 'model', example: string) =>
  ApiParam({ name, description: '1-128 printable characters, no slash.', schema: { type: 'string', pattern: CONSUMER_PART.source }, example });

@ApiTags('audit and time travel')
@Controller('v1/state')
export class ScopedStateController {
  constructor(
    private readonly travel: ScopedTimeTravelService,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly views: LedgerViewService,
  ) {}

  @Get('nodes/:nodeId')
  @ApiOperation({ summary: "One node's state at a time or position, folded from its own streams only" })
  @ApiNodeIdParam()
  @ApiOkResponse({ type: ScopedStateResponseDto })
  async node(@Param('nodeId', NodeIdParam) nodeId: string, @Query() query: ScopedStateQueryDto) {
    // A node the ledger never enlisted is a 404; one enlisted after `at` answers its (empty) state then.
    if (!(await this.views.current()).nodes[nodeId]) throw new NotFoundException({ code: 'not_found', message: `node ${nodeId} is not enlisted` });
    return this.answer({ nodeId }, query);
  }

  @Get('addresses/:ip')
  @ApiOperation({ summary: "One address's leases (and their owners) at a time or position" })
  @ApiIpParam()
  @ApiOkResponse({ type: ScopedStateResponseDto })
  address(@Param('ip', IpParam) ip: string, @Query() query: ScopedStateQueryDto) {
    return this.answer({ ip }, query);
  }

  @Get('models/:controller/:model')
  @ApiOperation({ summary: "One model's allocations, devices and leases at a time or position" })
  @consumerPart('controller', 'juju-1')
  @consumerPart('model', 'prod')
  @ApiOkResponse({ type: ScopedStateResponseDto })
  model(@Param('controller') controller: string, @Param('model') model: string, @Query() query: ScopedStateQueryDto) {
    matching('controller', controller, CONSUMER_PART, '1-128 printable characters');
    matching('model', model, CONSUMER_PART, '1-128 printable characters');
    return this.answer({ controller, model }, query);
  }

  private async answer(key: HistoryKey, query: ScopedStateQueryDto) {
    const point = await this.pointOf(query.at);
    const { view, position, now, folded, streams } = await this.travel.viewAt(key, point);
    return { at: now.toISOString(), position, scope: key, folded, streams, ...presentScopedState(view, now, key) };
  }

  private async pointOf(raw: string | undefined): Promise<PointInLog> {
    if (raw === undefined) return { position: await this.store.headPosition() };
    // The DTO has checked `at` is a point of the log.
    return parsePointInLog(raw)!;
  }
}
