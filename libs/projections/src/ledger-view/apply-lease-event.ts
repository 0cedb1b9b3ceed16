import type { RecordedEvent } from '@ledger/event-store';
import type { LeaseEvent } from '@ledger/domain';
import type { IpLeasesView, LeaseView } from './lease-views';
import type { CollectionChanges } from '../runtime/collection-changes';
import type { LedgerViewState } from './views';
import { stamp } from './view-changes';

const ipView = (view: LedgerViewState, ip: string): IpLeasesView => (view.leases[ip] ??= { ip, leases: [], activeLeaseId: null, dhcp: {}, lastPosition: 0 });

const activeLease = (ips: IpLeasesView, leaseId: string): LeaseView | undefined =>
  ips.activeLeaseId === leaseId ? ips.leases.find((lease) => lease.leaseId === leaseId) : undefined;

/** Folds one event of an `ip-{ip}` stream into the lease views. */
export const applyLeaseEvent = (view: LedgerViewState, recorded: RecordedEvent, ip: string, event: LeaseEvent, changes: CollectionChanges): void => {
  const ips = ipView(view, ip);
  const position = recorded.position;
  stamp(changes, 'leases', ips, position);
  switch (event.type) {
    case 'LeaseGranted': {
      const { leaseId, mac, owner, leaseKind, expiresAt, dhcpSource } = event.data;
      ips.leases.push({
        leaseId,
        ip,
        mac,
        owner: { ...owner },
        kind: leaseKind,
        expiresAt,
        dhcpSource: dhcpSource ?? null,
        grantedAt: recorded.recordedAt,
        renewedAt: null,
        ended: null,
        lastPosition: position,
      });
      ips.activeLeaseId = leaseId;
      return;
    }
    case 'LeaseRenewed': {
      const lease = activeLease(ips, event.data.leaseId);
      if (!lease) return;
      lease.expiresAt = event.data.expiresAt;
      lease.renewedAt = recorded.recordedAt;
      lease.lastPosition = position;
      return;
    }
    case 'LeaseReleased':
    case 'LeaseExpired': {
      const lease = activeLease(ips, event.data.leaseId);
      if (!lease) return;
      lease.ended =
        event.type === 'LeaseReleased'
          ? { how: 'released', reason: event.data.reason, cause: event.data.cause ?? null, at: recorded.recordedAt, position }
          : { how: 'expired', reason: null, cause: null, at: recorded.recordedAt, position };
      lease.lastPosition = position;
      ips.activeLeaseId = null;
      return;
    }
    case 'DhcpLeaseObserved': {
      const { source, mac, state, starts, ends, hostname, following, observedAt } = event.data;
      ips.dhcp[source] = { source, mac, state, starts, ends, hostname, ...(following ? { following } : {}), observedAt, position };
      return;
    }
    case 'DhcpLeaseReclaimed': {
      // As the lease decider folds it: the server's binding is gone, unless the server has since bound the address to another MAC.
      const { source, mac, reclaimedAt } = event.data;
      const seen = ips.dhcp[source];
      if (seen && seen.mac !== mac) return;
      ips.dhcp[source] = {
        source,
        mac,
        state: 'free',
        starts: seen?.starts ?? null,
        ends: null,
        hostname: seen?.hostname ?? null,
        ...(seen?.following ? { following: true as const } : {}),
        observedAt: reclaimedAt,
        position,
      };
      return;
    }
  }
};
