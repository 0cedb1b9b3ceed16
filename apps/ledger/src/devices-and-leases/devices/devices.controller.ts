import { Body, Controller, Get, HttpCode, NotFoundException, Param, Post, Query } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { isDeviceLive } from '@ledger/projections';
import { Ctx } from '../../http/request-context.decorator';
import type { RequestContext } from '../../application/request-context';
import { TokenParam } from '../../http/params';
import { LedgerViewService } from '../../read-models/ledger-view.service';
import { RegisterDeviceRequestDto } from './register-device.request.dto';
import { RegisterDevice, RemoveDevice } from './device-commands.handlers';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { MinPositionQueryDto, minPositionOf } from '../../http/min-position.query.dto';
import { ApiRefusals } from '../../openapi/api-refusals.decorator';
import { ApiDeviceIdParam, ApiTokenParam } from '../../openapi/api-params';
import { DeviceResponseDto, RegisterDeviceResponseDto, RemoveDeviceResponseDto } from './device.response.dto';

@ApiTags('devices and leases')
@Controller('v1')
export class DevicesController {
  constructor(
    private readonly commands: CommandBus,
    private readonly views: LedgerViewService,
  ) {}

  @Post('allocations/:token/devices')
  @HttpCode(201)
  @ApiOperation({ summary: 'Register a container or VM under an allocation (seed 2)', description: 'The device lives and dies with its parent allocation.' })
  @ApiTokenParam()
  @ApiCreatedResponse({ type: RegisterDeviceResponseDto })
  @ApiRefusals('stale_token', 'already_exists')
  register(@Param('token', TokenParam) t: { token: string; nodeId: string }, @Body() body: RegisterDeviceRequestDto, @Ctx() context: RequestContext) {
    return this.commands.execute(new RegisterDevice(t.token, t.nodeId, body, context));
  }

  @Post('devices/:deviceId/remove')
  @HttpCode(200)
  @ApiOperation({ summary: 'Remove a device; its leases follow' })
  @ApiDeviceIdParam()
  @ApiOkResponse({ type: RemoveDeviceResponseDto })
  remove(@Param('deviceId') deviceId: string, @Ctx() context: RequestContext) {
    return this.commands.execute(new RemoveDevice(deviceId, context));
  }

  @Get('devices/:deviceId')
  @ApiOperation({ summary: 'A device and whether it is live' })
  @ApiDeviceIdParam()
  @ApiOkResponse({ type: DeviceResponseDto })
  async get(@Param('deviceId') deviceId: string, @Query() query: MinPositionQueryDto) {
    const view = await this.views.atLeast(minPositionOf(query));
    const device = view.devices[deviceId];
    if (!device) throw new NotFoundException({ code: 'not_found', message: `no device ${deviceId.slice(0, 128)}` });
    const { lastPosition: _, ...shown } = device;
    return { ...shown, live: isDeviceLive(view, device), position: view.position };
  }
}
