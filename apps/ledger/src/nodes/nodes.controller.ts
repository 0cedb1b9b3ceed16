import { BadRequestException, Body, Controller, Get, HttpCode, Inject, NotFoundException, Param, Post, Query } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { hasCondition, listNodes, NODE_CONDITIONS, NODE_STATUSES, type NodeCondition, type NodeStatus } from '@ledger/projections';
import { Ctx } from '../http/request-context.decorator';
import type { RequestContext } from '../application/request-context';
import { NodeIdParam, parseMinPosition } from '../http/params';
import { LedgerViewService } from '../read-models/ledger-view.service';
import { CLOCK } from '../infrastructure/injection-tokens';
import type { Clock } from '../infrastructure/clock';
import { EnlistNodeRequestDto } from './enlist-node/enlist-node.request.dto';
import { EnlistNode } from './enlist-node/enlist-node.handler';
import { presentNode } from '@ledger/projections';

@Controller('v1/nodes')
export class NodesController {
  constructor(
    private readonly commands: CommandBus,
    private readonly views: LedgerViewService,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Post()
  @HttpCode(201)
  enlist(@Body() body: EnlistNodeRequestDto, @Ctx() context: RequestContext) {
    return this.commands.execute(new EnlistNode(body, context));
  }

  @Get(':nodeId')
  async get(@Param('nodeId', NodeIdParam) nodeId: string, @Query('minPosition') minPosition?: string) {
    const view = await this.views.atLeast(parseMinPosition(minPosition));
    const node = view.nodes[nodeId];
    if (!node) throw new NotFoundException({ code: 'not_found', message: `node ${nodeId} is not enlisted` });
    return { ...presentNode(view, node, this.clock()), position: view.position };
  }

  @Get()
  async list(@Query('status') status?: string, @Query('minPosition') minPosition?: string, @Query('condition') condition?: string) {
    if (status !== undefined && !NODE_STATUSES.includes(status as NodeStatus)) {
      throw new BadRequestException({ code: 'invalid_request', message: `status must be one of ${NODE_STATUSES.join(', ')}` });
    }
    if (condition !== undefined && !NODE_CONDITIONS.includes(condition as NodeCondition)) {
      throw new BadRequestException({ code: 'invalid_request', message: `condition must be one of ${NODE_CONDITIONS.join(', ')}` });
    }
    const view = await this.views.atLeast(parseMinPosition(minPosition));
    const now = this.clock();
    const nodes = listNodes(view, status as NodeStatus | undefined, now).filter(
      (node) => condition === undefined || hasCondition(node, condition as NodeCondition),
    );
    return { nodes: nodes.map((node) => presentNode(view, node, now)), position: view.position };
  }
}
