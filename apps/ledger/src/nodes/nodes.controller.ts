import { Body, Controller, Get, HttpCode, Inject, NotFoundException, Param, Post, Query } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { hasCondition, listNodes } from '@ledger/projections';
import { Ctx } from '../http/request-context.decorator';
import type { RequestContext } from '../application/request-context';
import { NodeIdParam } from '../http/params';
import { LedgerViewService } from '../read-models/ledger-view.service';
import { CLOCK } from '../infrastructure/injection-tokens';
import type { Clock } from '../infrastructure/clock';
import { EnlistNodeRequestDto } from './enlist-node/enlist-node.request.dto';
import { EnlistNode } from './enlist-node/enlist-node.handler';
import { presentNode, type AllocationVisibility } from '@ledger/projections';
import { Visibility } from '../http/allocation-visibility.decorator';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { MinPositionQueryDto, minPositionOf } from '../http/min-position.query.dto';
import { ApiRefusals } from '../openapi/api-refusals.decorator';
import { ApiNodeIdParam } from '../openapi/api-params';
import { NodeListQueryDto } from './node-list.query.dto';
import { EnlistNodeResponseDto, NodeListResponseDto, NodeResponseDto } from './node.response.dto';

@ApiTags('nodes')
@Controller('v1/nodes')
export class NodesController {
  constructor(
    private readonly commands: CommandBus,
    private readonly views: LedgerViewService,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({ summary: 'Enlist a node', description: 'A provider (MAAS, Ironic) tells the ledger a machine exists.' })
  @ApiCreatedResponse({ type: EnlistNodeResponseDto })
  @ApiRefusals('already_exists')
  enlist(@Body() body: EnlistNodeRequestDto, @Ctx() context: RequestContext) {
    return this.commands.execute(new EnlistNode(body, context));
  }

  @Get(':nodeId')
  @ApiOperation({ summary: 'A node: status, epoch, live allocation, reservation, faults, maintenance' })
  @ApiNodeIdParam()
  @ApiOkResponse({ type: NodeResponseDto })
  async get(@Param('nodeId', NodeIdParam) nodeId: string, @Query() query: MinPositionQueryDto, @Visibility() visible: AllocationVisibility) {
    const view = await this.views.atLeast(minPositionOf(query));
    const node = view.nodes[nodeId];
    if (!node) throw new NotFoundException({ code: 'not_found', message: `node ${nodeId} is not enlisted` });
    return { ...presentNode(view, node, this.clock(), visible), position: view.position };
  }

  @Get()
  @ApiOperation({ summary: 'Nodes, by status and health condition' })
  @ApiOkResponse({ type: NodeListResponseDto })
  async list(@Query() query: NodeListQueryDto, @Visibility() visible: AllocationVisibility) {
    const { status, condition } = query;
    const view = await this.views.atLeast(minPositionOf(query));
    const now = this.clock();
    const nodes = listNodes(view, status, now).filter((node) => condition === undefined || hasCondition(node, condition));
    return { nodes: nodes.map((node) => presentNode(view, node, now, visible)), position: view.position };
  }
}
