import { BadRequestException, Body, Controller, Delete, Headers, HttpCode, Param, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { Ctx } from '../../http/request-context.decorator';
import type { RequestContext } from '../../application/request-context';
import { NodeIdParam } from '../../http/params';
import { EndMaintenanceRequestDto, StartMaintenanceRequestDto } from './maintenance.request.dto';
import { SetMaintenance } from './maintenance.handlers';
import { ApiHeader, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiNodeIdParam } from '../../openapi/api-params';
import { MaintenanceResponseDto } from './maintenance.response.dto';

const MAX_REASON = 512;

/** Operator maintenance: on with a reason, off with an optional one. Repeating either changes nothing. */
@ApiTags('node health')
@ApiNodeIdParam()
@Controller('v1/nodes/:nodeId/maintenance')
export class MaintenanceController {
  constructor(private readonly commands: CommandBus) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({ summary: 'Operator maintenance on (seed 4: only an operator sets it)' })
  @ApiOkResponse({ type: MaintenanceResponseDto })
  start(@Param('nodeId', NodeIdParam) nodeId: string, @Body() body: StartMaintenanceRequestDto, @Ctx() context: RequestContext) {
    return this.commands.execute(new SetMaintenance(nodeId, true, body.reason, context));
  }

  @Delete()
  @HttpCode(200)
  @ApiOperation({ summary: 'Operator maintenance off' })
  @ApiHeader({ name: 'X-Maintenance-Reason', required: false, description: 'Why (or reason in the body).' })
  @ApiOkResponse({ type: MaintenanceResponseDto })
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
