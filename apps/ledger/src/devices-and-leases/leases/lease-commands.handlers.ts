import { Inject } from '@nestjs/common';
import { parseRfc3339Time } from '@ledger/domain';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { normaliseIp, normaliseMac, type LeaseKind } from '@ledger/domain';
import { LeaseCommandService } from '../../application/lease-command.service';
import { LeaseOwnersService, type OwnerReference } from '../../application/lease-owners.service';
import type { RequestContext } from '../../application/request-context';
import { CLOCK } from '../../infrastructure/injection-tokens';
import type { Clock } from '../../infrastructure/clock';
import { InvalidInput } from '../../application/invalid-input';
import { withPosition } from '../../application/with-position';

/** What the command carries: plain values (the HTTP request DTO implements this). */
export interface GrantLeaseInput {
  ip: string;
  mac: string;
  owner: { token?: string; deviceId?: string };
  kind: 'dhcp' | 'static';
  expiresAt?: string | null;
}

/** What the command carries: plain values (the HTTP request DTO implements this). */
export interface RenewLeaseInput {
  expiresAt: string | null;
  leaseId?: string;
}

/** What the command carries: plain values (the HTTP request DTO implements this). */
export interface ReleaseLeaseInput {
  leaseId?: string;
}

export interface LeaseAnswer {
  ip: string;
  leaseId: string | null;
  status: string;
  expiresAt?: string | null;
  superseded?: string;
  position: number | null;
}

/** An expiry in the past is the domain's to refuse (400 invalid_request): one rule, in one place. */
const isoOrNull = (value: string | null | undefined): string | null => (value === undefined || value === null ? null : parseRfc3339Time(value)!.toISOString());

const ownerReference = (owner: GrantLeaseInput['owner']): OwnerReference => {
  if ((owner.token === undefined) === (owner.deviceId === undefined)) {
    throw new InvalidInput('owner: give exactly one of token or deviceId');
  }
  return owner.token !== undefined ? { token: owner.token } : { deviceId: owner.deviceId! };
};

export class GrantLease extends Command<LeaseAnswer> {
  constructor(
    readonly body: GrantLeaseInput,
    readonly context: RequestContext,
  ) {
    super();
  }
}

@CommandHandler(GrantLease)
export class GrantLeaseHandler implements ICommandHandler<GrantLease> {
  constructor(
    private readonly leases: LeaseCommandService,
    private readonly owners: LeaseOwnersService,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ body, context }: GrantLease): Promise<LeaseAnswer> {
    const now = this.clock();
    const reference = ownerReference(body.owner);
    const expiresAt = isoOrNull(body.expiresAt);
    const ip = normaliseIp(body.ip)!;
    const owner = await this.owners.resolve(reference);
    const { reply, position } = await this.leases.execute(
      ip,
      (liveness) => ({
        type: 'GrantLease',
        ip,
        mac: normaliseMac(body.mac)!,
        owner,
        leaseKind: body.kind as LeaseKind,
        expiresAt,
        liveness,
        now: now.toISOString(),
      }),
      context,
      { also: [owner] },
    );
    return withPosition(reply, position);
  }
}

export class RenewLease extends Command<LeaseAnswer> {
  constructor(
    readonly ip: string,
    readonly body: RenewLeaseInput,
    readonly context: RequestContext,
  ) {
    super();
  }
}

@CommandHandler(RenewLease)
export class RenewLeaseHandler implements ICommandHandler<RenewLease> {
  constructor(
    private readonly leases: LeaseCommandService,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ ip, body, context }: RenewLease): Promise<LeaseAnswer> {
    const now = this.clock();
    const expiresAt = isoOrNull(body.expiresAt);
    const { reply, position } = await this.leases.execute(
      ip,
      (liveness) => ({ type: 'RenewLease', ip, leaseId: body.leaseId ?? null, expiresAt, liveness, now: now.toISOString() }),
      context,
    );
    return withPosition(reply, position);
  }
}

export class ReleaseLease extends Command<LeaseAnswer> {
  constructor(
    readonly ip: string,
    readonly body: ReleaseLeaseInput,
    readonly context: RequestContext,
  ) {
    super();
  }
}

/** Releasing is idempotent; naming a lease that is no longer active changes nothing. */
@CommandHandler(ReleaseLease)
export class ReleaseLeaseHandler implements ICommandHandler<ReleaseLease> {
  constructor(
    private readonly leases: LeaseCommandService,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ ip, body, context }: ReleaseLease): Promise<LeaseAnswer> {
    const now = this.clock().toISOString();
    const { reply, position } = await this.leases.execute(
      ip,
      () => ({ type: 'ReleaseLease', ip, leaseId: body.leaseId ?? null, reason: 'released', cause: null, now }),
      context,
    );
    return withPosition(reply, position);
  }
}
