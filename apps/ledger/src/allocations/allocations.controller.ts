import { Body, Controller, Get, HttpCode, NotFoundException, Param, Post, Query } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { Ctx } from '../http/request-context.decorator';
import type { RequestContext } from '../command-side/request-context';
import { TokenParam } from '../http/params';
import { LedgerViewService } from '../read-side/ledger-view.service';
import { AcquireRequestDto } from './acquire.request.dto';
import { DeploymentReportRequestDto, ModelReleaseRequestDto, ReleaseRequestDto } from './allocation-action.request.dto';
import { AcquireNode } from './acquire-node.handler';
import { RunTokenCommand } from './token-commands.handlers';
import { ReleaseModel } from './release-model.handler';
import { presentAllocation } from './allocation.presenter';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { MinPositionQueryDto, minPositionOf } from '../http/min-position.query.dto';
import { ApiRefusals } from '../openapi/api-refusals.decorator';
import { ApiTokenParam } from '../openapi/api-params';
import { NodeCommandResponseDto } from '../nodes/node.response.dto';
import { AllocationResponseDto, ModelReleaseResponseDto } from './allocation.response.dto';

type ParsedToken = { token: string; nodeId: string };

@ApiTags('allocations')
@Controller('v1')
export class AllocationsController {
  constructor(private readonly commands: CommandBus, private readonly views: LedgerViewService) {}

  @Post('allocations')
  @HttpCode(201)
  @ApiOperation({
    summary: 'Acquire a node: a fresh provisioning token',
    description: 'By name (nodeId, with reservationKey if it is reserved) or by constraints. Store the token as the instance id: only the current token is honoured (fencing).',
  })
  @ApiCreatedResponse({ type: NodeCommandResponseDto })
  @ApiRefusals('node_unavailable', 'node_reserved', 'reservation_mismatch', 'no_matching_node', 'node_faulted', 'node_in_maintenance', 'request_conflict')
  acquire(@Body() body: AcquireRequestDto, @Ctx() context: RequestContext) {
    return this.commands.execute(new AcquireNode(body, context));
  }

  @Get('allocations/:token')
  @ApiOperation({ summary: 'An allocation: status, whether it is current, how it ended' })
  @ApiTokenParam()
  @ApiOkResponse({ type: AllocationResponseDto })
  async get(@Param('token', TokenParam) { token }: ParsedToken, @Query() query: MinPositionQueryDto) {
    const view = await this.views.atLeast(minPositionOf(query));
    const allocation = view.allocations[token];
    if (!allocation) throw new NotFoundException({ code: 'not_found', message: 'no allocation with that token' });
    return { ...presentAllocation(view, allocation), position: view.position };
  }

  @Post('allocations/:token/deploying')
  @HttpCode(200)
  @ApiOperation({ summary: 'Deployment started (consumer or provider)' })
  @ApiTokenParam()
  @ApiOkResponse({ type: NodeCommandResponseDto })
  @ApiRefusals('stale_token', 'wrong_state', 'request_conflict')
  deploying(@Param('token', TokenParam) t: ParsedToken, @Body() body: DeploymentReportRequestDto, @Ctx() context: RequestContext) {
    return this.commands.execute(new RunTokenCommand(t.token, t.nodeId, { type: 'StartDeployment' }, body.requestId ?? null, context));
  }

  @Post('allocations/:token/deployed')
  @HttpCode(200)
  @ApiOperation({ summary: 'Deployment finished' })
  @ApiTokenParam()
  @ApiOkResponse({ type: NodeCommandResponseDto })
  @ApiRefusals('stale_token', 'wrong_state', 'request_conflict')
  deployed(@Param('token', TokenParam) t: ParsedToken, @Body() body: DeploymentReportRequestDto, @Ctx() context: RequestContext) {
    return this.commands.execute(new RunTokenCommand(t.token, t.nodeId, { type: 'MarkDeployed' }, body.requestId ?? null, context));
  }

  @Post('allocations/:token/failed')
  @HttpCode(200)
  @ApiOperation({ summary: 'Deployment failed: the allocation stays, the holder decides (seed 1)' })
  @ApiTokenParam()
  @ApiOkResponse({ type: NodeCommandResponseDto })
  @ApiRefusals('stale_token', 'wrong_state', 'request_conflict')
  failed(@Param('token', TokenParam) t: ParsedToken, @Body() body: DeploymentReportRequestDto, @Ctx() context: RequestContext) {
    const action = { type: 'MarkDeploymentFailed' as const, reason: body.reason ?? 'deployment failed', source: body.source ?? 'consumer' };
    return this.commands.execute(new RunTokenCommand(t.token, t.nodeId, action, body.requestId ?? null, context));
  }

  @Post('allocations/:token/release')
  @HttpCode(200)
  @ApiOperation({ summary: 'End the allocation; accepted in every node condition (seed 4)', description: 'Its devices end with it and their leases are released by the lease cascade.' })
  @ApiTokenParam()
  @ApiOkResponse({ type: NodeCommandResponseDto })
  @ApiRefusals('stale_token', 'request_conflict')
  release(@Param('token', TokenParam) t: ParsedToken, @Body() body: ReleaseRequestDto, @Ctx() context: RequestContext) {
    const action = { type: 'ReleaseAllocation' as const, ending: body.force ? ('force_released' as const) : ('released' as const) };
    return this.commands.execute(new RunTokenCommand(t.token, t.nodeId, action, body.requestId ?? null, context));
  }

  @Post('models/release')
  @HttpCode(200)
  @ApiOperation({ summary: 'End every allocation of a model (environment destroy, seed 2)' })
  @ApiOkResponse({ type: ModelReleaseResponseDto })
  releaseModel(@Body() body: ModelReleaseRequestDto, @Ctx() context: RequestContext) {
    return this.commands.execute(new ReleaseModel(body, context));
  }
}
