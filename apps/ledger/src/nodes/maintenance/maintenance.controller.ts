import { BadRequestException, Body, Controller, Delete, Headers, HttpCode, Param, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { Ctx } from '../../http/request-context.decorator';
import type { RequestContext } from '../../application/request-context';
import { NodeIdParam } from '../../http/params';
import { EndMaintenanceRequestDto, StartMaintenanceRequestDto } from './maintenance.request.dto';
import { SetMaintenance } from './maintenance.handlers';

const MAX_REASON = 512;

/** Operator maintenance: on with a reason, off with an optional one. Repeating either changes nothing. */
@Controller('v1/nodes/:nodeId/maintenance')
export class MaintenanceController {
  constructor(private readonly commands: CommandBus) {}

  @Post()
  @HttpCode(200)
  start(@Param('nodeId', NodeIdParam) nodeId: string, @Body() body: StartMaintenanceRequestDto, @Ctx() context: RequestContext) {
    return this.commands.execute(new SetMaintenance(nodeId, true, body.reason, context));
  }

  @Delete()
  @HttpCode(200)
  end(
    @Param('nodeId', NodeIdParam) nodeId: string,
    @Body() body: EndMaintenanceRequestDto,
    @Headers('x-maintenance-reason') headerReason: string | undefined,
    @Ctx() context: RequestContext,
  ) {
    const reason = body.reason ?? headerReason ?? null;
    if (reason !== null && reason.length > MAX_REASON) {
      throw new BadRequestException({ code: 'invalid_request', message: `reason: must be at most ${MAX_REASON} characters` });
    }
    return this.commands.execute(new SetMaintenance(nodeId, false, reason, context));
  }
}
