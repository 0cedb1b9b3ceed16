import { accept, refuse, type Decision } from '../core';
import type { RecordDhcpReclaim } from './lease-commands';
import type { LeaseEvent } from './lease-events';
import { parseLeaseId } from './lease-id';
import type { LeaseReply, LeaseState } from './lease-state';
import { livenessOf, missingLiveness } from './liveness-check';

/**
 * A reclaim is a fact the agent reports after the deletion at its server, recorded once per
 * lease and server: the agent posts it again after a crash, and that appends nothing. The
 * lease named must be the address's last ended one, for the MAC it bound, with no lease
 * active on the address since: that is the lease whose orphaned binding the ledger listed,
 * the only one whose owner and end the address still knows, and a reclaim arriving after a
 * newer lease would misstate what the server holds now. (The agent records a reclaim
 * before it posts anything its server wrote after the deletion, so it never arrives late.)
 */
export const decideDhcpReclaim = (command: RecordDhcpReclaim, state: LeaseState): Decision<LeaseEvent, LeaseReply> => {
  const { ip, leaseId, mac, source, now } = command;
  const parsed = parseLeaseId(leaseId);
  if (!parsed || parsed.ip !== ip || parsed.sequence > state.granted) return refuse('not_found', `no lease ${leaseId} on ${ip}`);
  const reply = { ip, leaseId, status: 'reclaimed' };
  if (state.reclaimed[source]?.leaseId === leaseId) return accept([], reply);
  const active = state.active;
  if (active) {
    const why = active.leaseId === leaseId ? 'only the binding of an ended lease is reclaimed' : `a reclaim of ${leaseId} comes after it`;
    return refuse('wrong_state', `lease ${active.leaseId} holds ${ip}: ${why}`, { activeLeaseId: active.leaseId });
  }
  const ended = state.lastEnded;
  if (!ended || ended.leaseId !== leaseId) {
    return refuse('wrong_state', `lease ${leaseId} is not the last lease of ${ip} that ended (${ended?.leaseId ?? 'none'} is)`, {
      lastLeaseId: ended?.leaseId ?? null,
    });
  }
  if (ended.mac !== mac) return refuse('wrong_state', `lease ${leaseId} bound ${ended.mac}, not ${mac}`, { mac: ended.mac });
  let ownerEnding: string | null = null;
  if (ended.reason === 'owner_ended') {
    const owner = livenessOf(command.liveness, ended.owner);
    if (!owner) return missingLiveness(ended.owner);
    ownerEnding = owner.live ? null : owner.ending;
  }
  const reason = ended.how === 'expired' ? 'expired' : (ended.reason ?? 'released');
  return accept([{ type: 'DhcpLeaseReclaimed', data: { ip, leaseId, mac, source, reason, ownerEnding, reclaimedAt: now } }], reply);
};
