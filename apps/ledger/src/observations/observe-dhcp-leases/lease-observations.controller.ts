import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { Ctx } from '../../http/request-context.decorator';
import type { RequestContext } from '../../application/request-context';
import { LeaseObservationsRequestDto } from './lease-observation.request.dto';
import { ObserveDhcpLeases } from './observe-dhcp-leases.handler';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { LeaseObservationsResponseDto } from '../observation.response.dto';

@ApiTags('observations')
@Controller('v1/observations')
export class LeaseObservationsController {
  constructor(private readonly commands: CommandBus) {}

  @Post('leases')
  @HttpCode(200)
  @ApiOperation({
    summary: 'A batch of DHCP server lease records',
    description:
      'A verdict for each: valid, orphaned, released or unknown. Idempotent: records the ledger already has append nothing (ledger-cli import posts here).',
  })
  @ApiOkResponse({ type: LeaseObservationsResponseDto })
  leases(@Body() body: LeaseObservationsRequestDto, @Ctx() context: RequestContext) {
    return this.commands.execute(new ObserveDhcpLeases(body, context));
  }
}
