import { BadRequestException, Body, Controller, Get, HttpCode, Inject, NotFoundException, Param, Post, Query } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { normaliseIp, normaliseMac } from '@ledger/domain';
import { listLeases, unleasedDhcpHoldings, type LeaseFilter } from '@ledger/projections';
import { Ctx } from '../../http/request-context.decorator';
import type { RequestContext } from '../../application/request-context';
import { IpParam } from '../../http/ip-param';
import { LedgerViewService } from '../../read-models/ledger-view.service';
import { CLOCK } from '../../infrastructure/injection-tokens';
import type { Clock } from '../../infrastructure/clock';
import { GrantLeaseRequestDto, ReleaseLeaseRequestDto, RenewLeaseRequestDto } from './lease.request.dto';
import { GrantLease, ReleaseLease, RenewLease } from './lease-commands.handlers';
import { presentIp, presentLease } from '@ledger/projections';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { MinPositionQueryDto, minPositionOf } from '../../http/min-position.query.dto';
import { ApiRefusals } from '../../openapi/api-refusals.decorator';
import { ApiIpParam } from '../../openapi/api-params';
import { LeaseListQueryDto } from './lease-list.query.dto';
import { IpResponseDto, LeaseCommandResponseDto, LeaseListResponseDto } from './lease.response.dto';

/** The DTO has checked each parameter; the addresses are compared in their canonical spelling. */
const filterOf = (query: LeaseListQueryDto): LeaseFilter => {
  const ip = query.ip === undefined ? undefined : normaliseIp(query.ip);
  if (ip === null) throw new BadRequestException({ code: 'invalid_request', message: 'ip must be an IPv4 or IPv6 address' });
  const mac = query.mac === undefined ? undefined : normaliseMac(query.mac);
  if (mac === null) throw new BadRequestException({ code: 'invalid_request', message: 'mac must be a MAC address (00:16:3e:00:00:01)' });
  return {
    status: query.status,
    ip,
    token: query.token,
    nodeId: query.nodeId,
    deviceId: query.deviceId,
    controller: query.controller,
    model: query.model,
    mac,
  };
};

@ApiTags('devices and leases')
@Controller('v1/leases')
export class LeasesController {
  constructor(
    private readonly commands: CommandBus,
    private readonly views: LedgerViewService,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({ summary: 'Grant a lease: an IP bound to a MAC, owned by an allocation or a device' })
  @ApiCreatedResponse({ type: LeaseCommandResponseDto })
  @ApiRefusals('ip_in_use', 'wrong_state', 'stale_token')
  grant(@Body() body: GrantLeaseRequestDto, @Ctx() context: RequestContext) {
    return this.commands.execute(new GrantLease(body, context));
  }

  @Post(':ip/renew')
  @HttpCode(200)
  @ApiOperation({ summary: 'Renew the active lease of an address' })
  @ApiIpParam()
  @ApiOkResponse({ type: LeaseCommandResponseDto })
  @ApiRefusals('wrong_state', 'stale_token')
  renew(@Param('ip', IpParam) ip: string, @Body() body: RenewLeaseRequestDto, @Ctx() context: RequestContext) {
    return this.commands.execute(new RenewLease(ip, body, context));
  }

  @Post(':ip/release')
  @HttpCode(200)
  @ApiOperation({ summary: 'Release the active lease of an address' })
  @ApiIpParam()
  @ApiOkResponse({ type: LeaseCommandResponseDto })
  @ApiRefusals('wrong_state')
  release(@Param('ip', IpParam) ip: string, @Body() body: ReleaseLeaseRequestDto, @Ctx() context: RequestContext) {
    return this.commands.execute(new ReleaseLease(ip, body, context));
  }

  /**
   * Leases (history included) by status and owner. With no owner filter, addresses a DHCP
   * server holds that the ledger never leased are listed too, as orphaned, with no lease id.
   */
  @Get()
  @ApiOperation({ summary: 'Leases by status (valid, orphaned, released, expired) and owner' })
  @ApiOkResponse({ type: LeaseListResponseDto })
  async list(@Query() query: LeaseListQueryDto) {
    const filter = filterOf(query);
    const view = await this.views.atLeast(minPositionOf(query));
    const now = this.clock();
    const leases = listLeases(view, filter, now).map(({ lease, ips }) => presentLease(view, ips, lease, now));
    const ownerless = [filter.token, filter.nodeId, filter.deviceId, filter.controller, filter.model, filter.mac].every((f) => f === undefined);
    const unleased =
      ownerless && (filter.status === undefined || filter.status === 'orphaned')
        ? unleasedDhcpHoldings(view, now)
            .filter(({ ips }) => filter.ip === undefined || ips.ip === filter.ip)
            .map(({ ips, seen }) => ({ ip: ips.ip, leaseId: null, mac: seen.mac, status: 'orphaned' as const, owner: null, dhcp: seen }))
        : [];
    return { leases: [...leases, ...unleased], position: view.position };
  }

  @Get(':ip')
  @ApiOperation({ summary: 'An address: its status, current lease, history and what DHCP servers said' })
  @ApiIpParam()
  @ApiOkResponse({ type: IpResponseDto })
  async get(@Param('ip', IpParam) ip: string, @Query() query: MinPositionQueryDto) {
    const view = await this.views.atLeast(minPositionOf(query));
    const ips = view.leases[ip];
    if (!ips) throw new NotFoundException({ code: 'not_found', message: `the ledger knows nothing of ${ip}` });
    return { ...presentIp(view, ips, this.clock()), position: view.position };
  }
}
