import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Ctx } from '../../http/request-context.decorator';
import type { RequestContext } from '../../application/request-context';
import { IpParam } from '../../http/ip-param';
import { ApiRefusals } from '../../openapi/api-refusals.decorator';
import { ApiIpParam } from '../../openapi/api-params';
import { LeaseCommandResponseDto } from '../leases/lease.response.dto';
import { DhcpReclaimRequestDto } from './dhcp-reclaim.request.dto';
import { RecordDhcpReclaim } from './record-dhcp-reclaim.handler';

@ApiTags('devices and leases')
@Controller('v1/leases')
export class DhcpReclaimsController {
  constructor(private readonly commands: CommandBus) {}

  @Post(':ip/reclaims')
  @HttpCode(200)
  @ApiOperation({
    summary: "Record a reclaim: a DHCP server's binding of an ended lease, deleted at the server by its agent",
    description:
      "The DHCP agent posts this after it deleted the binding (Kea's lease4-del fires no hook). The event (DhcpLeaseReclaimed) names the agent's key as actor and says why the binding was an orphan: how the lease ended and, when its owner ended, how. Idempotent: the same lease and source again appends nothing, and the server's own record of the deletion, posted later to POST /v1/observations/leases, appends nothing either. Answers status `reclaimed`.",
  })
  @ApiIpParam()
  @ApiOkResponse({ type: LeaseCommandResponseDto })
  @ApiRefusals('wrong_state')
  reclaim(@Param('ip', IpParam) ip: string, @Body() body: DhcpReclaimRequestDto, @Ctx() context: RequestContext) {
    return this.commands.execute(new RecordDhcpReclaim(ip, body, context));
  }
}
