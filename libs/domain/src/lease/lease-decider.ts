import type { Decider, Decision } from '../core';
import type { LeaseCommand } from './lease-commands';
import type { LeaseEvent } from './lease-events';
import { initialLeaseState, type LeaseReply, type LeaseState } from './lease-state';
import { evolveLease } from './evolve-lease';
import { decideGrant } from './decide-grant';
import { decideExpire, decideReleaseLease, decideRenew } from './decide-lease-lifecycle';
import { decideDhcpObservation } from './decide-dhcp-observation';
import { decideDhcpReclaim } from './decide-dhcp-reclaim';

export const decideLease = (command: LeaseCommand, state: LeaseState): Decision<LeaseEvent, LeaseReply> => {
  switch (command.type) {
    case 'GrantLease':
      return decideGrant(command, state);
    case 'RenewLease':
      return decideRenew(command, state);
    case 'ReleaseLease':
      return decideReleaseLease(command, state);
    case 'ExpireLease':
      return decideExpire(command, state);
    case 'ObserveDhcpLease':
      return decideDhcpObservation(command, state);
    case 'RecordDhcpReclaim':
      return decideDhcpReclaim(command, state);
  }
};

/** The lease aggregate: one `ip-{ip}` stream per address. */
export const leaseDecider: Decider<LeaseCommand, LeaseEvent, LeaseState, LeaseReply> = {
  initialState: initialLeaseState,
  evolve: evolveLease,
  decide: decideLease,
};
