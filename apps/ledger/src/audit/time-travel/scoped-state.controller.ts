import { BadRequestException, Controller, Get, Inject, Param, Query } from '@nestjs/common';
import { parsePointInLog, type PointInLog } from '@ledger/projections';
import type { EventStore } from '@ledger/event-store';
import { EVENT_STORE } from '../../infrastructure/injection-tokens';
import { IpParam } from '../../http/ip-param';
import { NodeIdParam } from '../../http/params';
import { matching, queryParams } from '../../http/query-params';
import { ScopedTimeTravelService, type HistoryKey } from './scoped-time-travel.service';
import { presentScopedState } from './scoped-state.presenter';

const CONSUMER_PART = /^[^\u0000-\u001f/]{1,128}$/;

/**
 * One node's, address's or model's state at a time or position, folded from its own
 * streams only (the review page asks this at every cursor move). `at` defaults to now.
 */
@Controller('v1/state')
export class ScopedStateController {
  constructor(
    private readonly travel: ScopedTimeTravelService,
    @Inject(EVENT_STORE) private readonly store: EventStore,
  ) {}

  @Get('nodes/:nodeId')
  node(@Param('nodeId', NodeIdParam) nodeId: string, @Query() query: Record<string, unknown>) {
    return this.answer({ nodeId }, query);
  }

  @Get('addresses/:ip')
  address(@Param('ip', IpParam) ip: string, @Query() query: Record<string, unknown>) {
    return this.answer({ ip }, query);
  }

  @Get('models/:controller/:model')
  model(@Param('controller') controller: string, @Param('model') model: string, @Query() query: Record<string, unknown>) {
    matching('controller', controller, CONSUMER_PART, '1-128 printable characters');
    matching('model', model, CONSUMER_PART, '1-128 printable characters');
    return this.answer({ controller, model }, query);
  }

  private async answer(key: HistoryKey, query: Record<string, unknown>) {
    const params = queryParams(query, ['at']);
    const point = await this.pointOf(params.at);
    const { view, position, now, folded, streams } = await this.travel.viewAt(key, point);
    return { at: now.toISOString(), position, scope: key, folded, streams, ...presentScopedState(view, now, key) };
  }

  private async pointOf(raw: string | undefined): Promise<PointInLog> {
    if (raw === undefined) return { position: await this.store.headPosition() };
    const point = parsePointInLog(raw);
    if (!point)
      throw new BadRequestException({ code: 'invalid_request', message: 'at must be an ISO-8601 time (2025-01-01T12:00:00Z) or a global position (digits)' });
    return point;
  }
}
