import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { Ctx } from '../../http/request-context.decorator';
import type { RequestContext } from '../../application/request-context';
import { LeaseObservationsRequestDto } from './lease-observation.request.dto';
import { ObserveDhcpLeases } from './observe-dhcp-leases.handler';

@Controller('v1/observations')
export class LeaseObservationsController {
  constructor(private readonly commands: CommandBus) {}

  @Post('leases')
  @HttpCode(200)
  leases(@Body() body: LeaseObservationsRequestDto, @Ctx() context: RequestContext) {
    return this.commands.execute(new ObserveDhcpLeases(body, context));
  }
}
