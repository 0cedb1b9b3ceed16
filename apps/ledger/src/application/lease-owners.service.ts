import { Injectable } from '@nestjs/common';
import { ownerLivenessIn, parseDeviceId, parseToken, refuse, type LeaseOwner, type OwnerLiveness } from '@ledger/domain';
import { NodeCommandService } from './node-command.service';
import { LedgerRefusal } from './ledger-refusal';

/** How a client names a lease owner. */
export type OwnerReference = { token: string } | { deviceId: string };

/**
 * Lease owners and their liveness, read from the owners' node streams: authoritative,
 * never a read model, so a lease decision cannot trust an allocation that already ended.
 */
@Injectable()
export class LeaseOwnersService {
  constructor(private readonly nodes: NodeCommandService) {}

  /** The owner a reference names; an id the ledger never issued is not found (404). */
  async resolve(reference: OwnerReference): Promise<LeaseOwner> {
    if ('token' in reference) {
      const parsed = parseToken(reference.token);
      const state = parsed ? await this.nodes.load(parsed.nodeId) : null;
      if (!parsed || !state?.issuedTokens.get(reference.token)) throw new LedgerRefusal(refuse('not_found', 'no allocation with that token').refusal);
      return { kind: 'allocation', token: reference.token, nodeId: parsed.nodeId };
    }
    const parsed = parseDeviceId(reference.deviceId);
    const device = parsed ? (await this.nodes.load(parsed.nodeId)).devices[reference.deviceId] : undefined;
    if (!parsed || !device) throw new LedgerRefusal(refuse('not_found', `no device ${reference.deviceId}`).refusal);
    return { kind: 'device', deviceId: device.deviceId, token: device.token, nodeId: parsed.nodeId };
  }

  async liveness(owner: LeaseOwner): Promise<OwnerLiveness> {
    return ownerLivenessIn(await this.nodes.load(owner.nodeId), owner);
  }
}
