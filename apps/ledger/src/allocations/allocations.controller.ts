import { Body, Controller, Get, HttpCode, NotFoundException, Param, Post, Query } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { Ctx } from '../http/request-context.decorator';
import type { RequestContext } from '../application/request-context';
import { TokenParam } from '../http/params';
import { LedgerViewService } from '../read-models/ledger-view.service';
import { DeploymentReportRequestDto, ModelReleaseRequestDto, ReleaseRequestDto } from './allocation-lifecycle/allocation-action.request.dto';
import { RunTokenCommand } from './allocation-lifecycle/token-commands.handlers';
import { OwnerDataRequestDto } from './owner-data/owner-data.request.dto';
import { OwnerDataResponseDto } from './owner-data/owner-data.response.dto';
import { ReleaseModel } from './release-model/release-model.handler';
import { devicesOfAllocation, presentAllocation } from '@ledger/projections';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { MinPositionQueryDto, minPositionOf } from '../http/min-position.query.dto';
import { ApiRefusals } from '../openapi/api-refusals.decorator';
import { ApiTokenParam } from '../openapi/api-params';
import { NodeCommandResponseDto } from '../openapi/node-command.response.dto';
import { AllocationResponseDto, ModelReleaseResponseDto } from './allocation.response.dto';

type ParsedToken = { token: string; nodeId: string };

@ApiTags('allocations')
@Controller('v1')
export class AllocationsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly views: LedgerViewService,
  ) {}

  @Get('allocations/:token')
  @ApiOperation({ summary: 'An allocation: status, whether it is current, how it ended' })
  @ApiTokenParam()
  @ApiOkResponse({ type: AllocationResponseDto })
  async get(@Param('token', TokenParam) { token }: ParsedToken, @Query() query: MinPositionQueryDto) {
    const view = await this.views.atLeast(minPositionOf(query));
    const allocation = view.allocations[token];
    if (!allocation) throw new NotFoundException({ code: 'not_found', message: 'no allocation with that token' });
    return { ...presentAllocation(view, allocation), devices: devicesOfAllocation(view, allocation), position: view.position };
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
  @ApiOperation({
    summary: 'End the allocation; accepted in every node condition (seed 4)',
    description: 'Its devices end with it and their leases are released by the lease cascade.',
  })
  @ApiTokenParam()
  @ApiOkResponse({ type: NodeCommandResponseDto })
  @ApiRefusals('stale_token', 'request_conflict')
  release(@Param('token', TokenParam) t: ParsedToken, @Body() body: ReleaseRequestDto, @Ctx() context: RequestContext) {
    const action = { type: 'ReleaseAllocation' as const, ending: body.force ? ('force_released' as const) : ('released' as const) };
    return this.commands.execute(new RunTokenCommand(t.token, t.nodeId, action, body.requestId ?? null, context));
  }

  @Post('allocations/:token/owner-data')
  @HttpCode(200)
  @ApiOperation({
    summary: "Set the holder's owner data on its machine (MAAS's set_owner_data)",
    description: 'Recorded only while the token is live; only the keys that change are recorded, so sending the same data again appends nothing.',
  })
  @ApiTokenParam()
  @ApiOkResponse({ type: OwnerDataResponseDto })
  @ApiRefusals('stale_token')
  ownerData(@Param('token', TokenParam) t: ParsedToken, @Body() body: OwnerDataRequestDto, @Ctx() context: RequestContext) {
    return this.commands.execute(new RunTokenCommand(t.token, t.nodeId, { type: 'SetOwnerData', ownerData: body.ownerData }, null, context));
  }

  @Post('models/release')
  @HttpCode(200)
  @ApiOperation({ summary: 'End every allocation of a model (environment destroy, seed 2)' })
  @ApiOkResponse({ type: ModelReleaseResponseDto })
  releaseModel(@Body() body: ModelReleaseRequestDto, @Ctx() context: RequestContext) {
    return this.commands.execute(new ReleaseModel(body, context));
  }
}
