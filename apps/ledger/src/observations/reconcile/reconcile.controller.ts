import { BadRequestException, Body, Controller, HttpCode, Inject, Post, Query } from '@nestjs/common';
import { reconcileInstances, reconcileIps, type AllocationVisibility } from '@ledger/projections';
import { Visibility } from '../../http/allocation-visibility.decorator';
import { LedgerViewService } from '../../read-models/ledger-view.service';
import { ReconcileRequestDto } from './reconcile.request.dto';
import { CLOCK } from '../../infrastructure/injection-tokens';
import type { Clock } from '../../infrastructure/clock';
import { canonicalIps } from './canonical-ips';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { MinPositionQueryDto, minPositionOf } from '../../http/min-position.query.dto';
import { ReconcileResponseDto } from './reconcile.response.dto';

/** A consumer's inventory in, a verdict and a safe action per item out. Reads only. */
@ApiTags('reconcile')
@Controller('v1/reconcile')
export class ReconcileController {
  constructor(
    private readonly views: LedgerViewService,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary: "A consumer's inventory against the ledger: a verdict and a safe action per item",
    description: 'valid, stale, duplicate, foreign or unknown for instances; valid, orphaned, foreign or unknown for IPs.',
  })
  @ApiOkResponse({ type: ReconcileResponseDto })
  async reconcile(@Body() body: ReconcileRequestDto, @Query() query: MinPositionQueryDto, @Visibility() visible: AllocationVisibility) {
    const bad = body.instances.findIndex((i) => (i.token === undefined) === (i.nodeId === undefined));
    if (bad >= 0) throw new BadRequestException({ code: 'invalid_request', message: `instances[${bad}]: give exactly one of token or nodeId` });
    const ips = canonicalIps(body.ips);
    const view = await this.views.atLeast(minPositionOf(query));
    // The model is the scope; the consumer's other fields (machine, agentName, owner) do not apply here.
    const consumer = { controller: body.consumer.controller, model: body.consumer.model };
    const instances = reconcileInstances(view, consumer, body.instances, visible);
    return { consumer, instances, ...(ips ? { ips: reconcileIps(view, consumer, ips, this.clock(), visible) } : {}), position: view.position };
  }
}
