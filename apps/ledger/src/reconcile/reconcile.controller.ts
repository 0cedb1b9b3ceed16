import { BadRequestException, Body, Controller, HttpCode, Inject, Post, Query } from '@nestjs/common';
import { reconcileInstances, reconcileIps } from '@ledger/projections';
import { parseMinPosition } from '../http/params';
import { LedgerViewService } from '../read-side/ledger-view.service';
import { ReconcileRequestDto } from './reconcile.request.dto';
import { CLOCK } from '../infrastructure/injection-tokens';
import type { Clock } from '../infrastructure/clock';
import { canonicalIps } from './canonical-ips';

/** A consumer's inventory in, a verdict and a safe action per item out. Reads only. */
@Controller('v1/reconcile')
export class ReconcileController {
  constructor(private readonly views: LedgerViewService, @Inject(CLOCK) private readonly clock: Clock) {}

  @Post()
  @HttpCode(200)
  async reconcile(@Body() body: ReconcileRequestDto, @Query('minPosition') minPosition?: string) {
    const bad = body.instances.findIndex((i) => (i.token === undefined) === (i.nodeId === undefined));
    if (bad >= 0) throw new BadRequestException({ code: 'invalid_request', message: `instances[${bad}]: give exactly one of token or nodeId` });
    const ips = canonicalIps(body.ips);
    const view = await this.views.atLeast(parseMinPosition(minPosition));
    // The model is the scope; the consumer's other fields (machine, agentName, owner) do not apply here.
    const consumer = { controller: body.consumer.controller, model: body.consumer.model };
    const instances = reconcileInstances(view, consumer, body.instances);
    return { consumer, instances, ...(ips ? { ips: reconcileIps(view, consumer, ips, this.clock()) } : {}), position: view.position };
  }
}
