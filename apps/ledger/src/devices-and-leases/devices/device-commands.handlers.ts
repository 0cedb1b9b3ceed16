import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { normaliseMac, parseDeviceId, refuse } from '@ledger/domain';
import { NodeCommandService } from '../../application/node-command.service';
import type { RequestContext } from '../../application/request-context';
import { CLOCK } from '../../infrastructure/injection-tokens';
import type { Clock } from '../../infrastructure/clock';
import { LedgerRefusal } from '../../application/ledger-refusal';

/** What the command carries: plain values (the HTTP request DTO implements this). */
export interface RegisterDeviceInput {
  hostname: string;
  mac: string;
}

export interface DeviceRegistration {
  deviceId: string;
  nodeId: string;
  token: string;
  hostname: string;
  mac: string;
  position: number | null;
}

/** Registers a container or VM under a live allocation: fenced on the token's node stream. */
export class RegisterDevice extends Command<DeviceRegistration> {
  constructor(
    readonly token: string,
    readonly nodeId: string,
    readonly body: RegisterDeviceInput,
    readonly context: RequestContext,
  ) {
    super();
  }
}

@CommandHandler(RegisterDevice)
export class RegisterDeviceHandler implements ICommandHandler<RegisterDevice> {
  constructor(
    private readonly nodes: NodeCommandService,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ token, nodeId, body, context }: RegisterDevice): Promise<DeviceRegistration> {
    const mac = normaliseMac(body.mac)!;
    const { reply, position } = await this.nodes.execute(
      { type: 'RegisterDevice', nodeId, token, hostname: body.hostname, mac, now: this.clock().toISOString() },
      context,
    );
    return { deviceId: reply.deviceId!, nodeId, token, hostname: body.hostname, mac, position };
  }
}

export class RemoveDevice extends Command<{ deviceId: string; status: string; position: number | null }> {
  constructor(
    readonly deviceId: string,
    readonly context: RequestContext,
  ) {
    super();
  }
}

/** Removes a device; its leases follow through the lease cascade. */
@CommandHandler(RemoveDevice)
export class RemoveDeviceHandler implements ICommandHandler<RemoveDevice> {
  constructor(
    private readonly nodes: NodeCommandService,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ deviceId, context }: RemoveDevice) {
    const parsed = parseDeviceId(deviceId);
    if (!parsed) throw new LedgerRefusal(refuse('not_found', `no device ${deviceId.slice(0, 128)}`).refusal);
    const { reply, position } = await this.nodes.execute({ type: 'RemoveDevice', nodeId: parsed.nodeId, deviceId, now: this.clock().toISOString() }, context);
    return { deviceId, status: reply.status ?? 'removed', position };
  }
}
