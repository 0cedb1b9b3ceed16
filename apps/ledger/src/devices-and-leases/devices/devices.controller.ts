import { Body, Controller, Get, HttpCode, NotFoundException, Param, Post, Query } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { isDeviceLive } from '@ledger/projections';
import { Ctx } from '../../http/request-context.decorator';
import type { RequestContext } from '../../application/request-context';
import { parseMinPosition, TokenParam } from '../../http/params';
import { LedgerViewService } from '../../read-models/ledger-view.service';
import { RegisterDeviceRequestDto } from './register-device.request.dto';
import { RegisterDevice, RemoveDevice } from './device-commands.handlers';

@Controller('v1')
export class DevicesController {
  constructor(
    private readonly commands: CommandBus,
    private readonly views: LedgerViewService,
  ) {}

  @Post('allocations/:token/devices')
  @HttpCode(201)
  register(@Param('token', TokenParam) t: { token: string; nodeId: string }, @Body() body: RegisterDeviceRequestDto, @Ctx() context: RequestContext) {
    return this.commands.execute(new RegisterDevice(t.token, t.nodeId, body, context));
  }

  @Post('devices/:deviceId/remove')
  @HttpCode(200)
  remove(@Param('deviceId') deviceId: string, @Ctx() context: RequestContext) {
    return this.commands.execute(new RemoveDevice(deviceId, context));
  }

  @Get('devices/:deviceId')
  async get(@Param('deviceId') deviceId: string, @Query('minPosition') minPosition?: string) {
    const view = await this.views.atLeast(parseMinPosition(minPosition));
    const device = view.devices[deviceId];
    if (!device) throw new NotFoundException({ code: 'not_found', message: `no device ${deviceId.slice(0, 128)}` });
    const { lastPosition: _, ...shown } = device;
    return { ...shown, live: isDeviceLive(view, device), position: view.position };
  }
}
