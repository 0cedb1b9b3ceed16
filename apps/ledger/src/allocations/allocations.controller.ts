import { Body, Controller, Get, HttpCode, NotFoundException, Param, Post, Query } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { Ctx } from '../http/request-context.decorator';
import type { RequestContext } from '../application/request-context';
import { parseMinPosition, TokenParam } from '../http/params';
import { LedgerViewService } from '../read-models/ledger-view.service';
import { DeploymentReportRequestDto, ModelReleaseRequestDto, ReleaseRequestDto } from './allocation-lifecycle/allocation-action.request.dto';
import { RunTokenCommand } from './allocation-lifecycle/token-commands.handlers';
import { ReleaseModel } from './release-model/release-model.handler';
import { presentAllocation } from '@ledger/projections';

type ParsedToken = { token: string; nodeId: string };

@Controller('v1')
export class AllocationsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly views: LedgerViewService,
  ) {}

  @Get('allocations/:token')
  async get(@Param('token', TokenParam) { token }: ParsedToken, @Query('minPosition') minPosition?: string) {
    const view = await this.views.atLeast(parseMinPosition(minPosition));
    const allocation = view.allocations[token];
    if (!allocation) throw new NotFoundException({ code: 'not_found', message: 'no allocation with that token' });
    return { ...presentAllocation(view, allocation), position: view.position };
  }

  @Post('allocations/:token/deploying')
  @HttpCode(200)
  deploying(@Param('token', TokenParam) t: ParsedToken, @Body() body: DeploymentReportRequestDto, @Ctx() context: RequestContext) {
    return this.commands.execute(new RunTokenCommand(t.token, t.nodeId, { type: 'StartDeployment' }, body.requestId ?? null, context));
  }

  @Post('allocations/:token/deployed')
  @HttpCode(200)
  deployed(@Param('token', TokenParam) t: ParsedToken, @Body() body: DeploymentReportRequestDto, @Ctx() context: RequestContext) {
    return this.commands.execute(new RunTokenCommand(t.token, t.nodeId, { type: 'MarkDeployed' }, body.requestId ?? null, context));
  }

  @Post('allocations/:token/failed')
  @HttpCode(200)
  failed(@Param('token', TokenParam) t: ParsedToken, @Body() body: DeploymentReportRequestDto, @Ctx() context: RequestContext) {
    const action = { type: 'MarkDeploymentFailed' as const, reason: body.reason ?? 'deployment failed', source: body.source ?? 'consumer' };
    return this.commands.execute(new RunTokenCommand(t.token, t.nodeId, action, body.requestId ?? null, context));
  }

  @Post('allocations/:token/release')
  @HttpCode(200)
  release(@Param('token', TokenParam) t: ParsedToken, @Body() body: ReleaseRequestDto, @Ctx() context: RequestContext) {
    const action = { type: 'ReleaseAllocation' as const, ending: body.force ? ('force_released' as const) : ('released' as const) };
    return this.commands.execute(new RunTokenCommand(t.token, t.nodeId, action, body.requestId ?? null, context));
  }

  @Post('models/release')
  @HttpCode(200)
  releaseModel(@Body() body: ModelReleaseRequestDto, @Ctx() context: RequestContext) {
    return this.commands.execute(new ReleaseModel(body, context));
  }
}
