import { BadRequestException, Body, Controller, Get, HttpCode, Inject, NotFoundException, Param, Post, Query } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { normaliseIp, normaliseMac } from '@ledger/domain';
import { LEASE_STATUSES, listLeases, unleasedDhcpHoldings, type LeaseFilter, type LeaseStatus } from '@ledger/projections';
import { Ctx } from '../../http/request-context.decorator';
import type { RequestContext } from '../../application/request-context';
import { parseMinPosition } from '../../http/params';
import { IpParam } from '../../http/ip-param';
import { LedgerViewService } from '../../read-models/ledger-view.service';
import { CLOCK } from '../../infrastructure/injection-tokens';
import type { Clock } from '../../infrastructure/clock';
import { GrantLeaseRequestDto, ReleaseLeaseRequestDto, RenewLeaseRequestDto } from './lease.request.dto';
import { GrantLease, ReleaseLease, RenewLease } from './lease-commands.handlers';
import { presentIp, presentLease } from '@ledger/projections';

type LeaseQuery = Partial<Record<'status' | 'ip' | 'token' | 'nodeId' | 'deviceId' | 'controller' | 'model' | 'mac' | 'minPosition', string>>;

const bounded = (name: string, value: string | undefined, max = 512): string | undefined => {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.length === 0 || value.length > max) {
    throw new BadRequestException({ code: 'invalid_request', message: `${name} must be 1-${max} characters` });
  }
  return value;
};

const filterOf = (query: LeaseQuery): LeaseFilter => {
  if (query.status !== undefined && !LEASE_STATUSES.includes(query.status as LeaseStatus)) {
    throw new BadRequestException({ code: 'invalid_request', message: `status must be one of ${LEASE_STATUSES.join(', ')}` });
  }
  const ip = query.ip === undefined ? undefined : normaliseIp(query.ip);
  if (ip === null) throw new BadRequestException({ code: 'invalid_request', message: 'ip must be an IPv4 or IPv6 address' });
  const mac = query.mac === undefined ? undefined : normaliseMac(query.mac);
  if (mac === null) throw new BadRequestException({ code: 'invalid_request', message: 'mac must be a MAC address (00:16:3e:00:00:01)' });
  return {
    status: query.status as LeaseStatus | undefined,
    ip,
    token: bounded('token', query.token),
    nodeId: bounded('nodeId', query.nodeId, 128),
    deviceId: bounded('deviceId', query.deviceId),
    controller: bounded('controller', query.controller, 128),
    model: bounded('model', query.model, 128),
    mac,
  };
};

@Controller('v1/leases')
export class LeasesController {
  constructor(
    private readonly commands: CommandBus,
    private readonly views: LedgerViewService,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Post()
  @HttpCode(201)
  grant(@Body() body: GrantLeaseRequestDto, @Ctx() context: RequestContext) {
    return this.commands.execute(new GrantLease(body, context));
  }

  @Post(':ip/renew')
  @HttpCode(200)
  renew(@Param('ip', IpParam) ip: string, @Body() body: RenewLeaseRequestDto, @Ctx() context: RequestContext) {
    return this.commands.execute(new RenewLease(ip, body, context));
  }

  @Post(':ip/release')
  @HttpCode(200)
  release(@Param('ip', IpParam) ip: string, @Body() body: ReleaseLeaseRequestDto, @Ctx() context: RequestContext) {
    return this.commands.execute(new ReleaseLease(ip, body, context));
  }

  /**
   * Leases (history included) by status and owner. With no owner filter, addresses a DHCP
   * server holds that the ledger never leased are listed too, as orphaned, with no lease id.
   */
  @Get()
  async list(@Query() query: LeaseQuery) {
    const filter = filterOf(query);
    const view = await this.views.atLeast(parseMinPosition(query.minPosition));
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
  async get(@Param('ip', IpParam) ip: string, @Query('minPosition') minPosition?: string) {
    const view = await this.views.atLeast(parseMinPosition(minPosition));
    const ips = view.leases[ip];
    if (!ips) throw new NotFoundException({ code: 'not_found', message: `the ledger knows nothing of ${ip}` });
    return { ...presentIp(view, ips, this.clock()), position: view.position };
  }
}
