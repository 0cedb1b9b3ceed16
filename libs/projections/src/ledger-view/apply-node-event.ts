import type { RecordedEvent } from '@ledger/event-store';
import { applyOwnerData, type NodeEvent } from '@ledger/domain';
import type { CollectionChanges } from '../runtime/collection-changes';
import type { LedgerViewState } from './views';
import { stamp } from './view-changes';
import { emptyNodeHealthView } from './node-health-view';

/**
 * Folds one node-stream event into the views. Mutates for speed (a rebuild folds
 * millions of events); determinism comes from folding the same ordered log. Each entity
 * added or changed is reported to `changes`.
 */
export const applyNodeEvent = (view: LedgerViewState, recorded: RecordedEvent, event: NodeEvent, changes: CollectionChanges): void => {
  const position = recorded.position;
  const node = view.nodes[event.data.nodeId];
  const touch = (): void => {
    if (node) stamp(changes, 'nodes', node, position);
  };
  switch (event.type) {
    case 'NodeEnlisted': {
      const { nodeId, hostname, arch, cpuCount, memoryMb, tags, zone, pool } = event.data;
      const enlisted = (view.nodes[nodeId] = {
        nodeId,
        hostname,
        arch,
        cpuCount,
        memoryMb,
        tags: [...tags],
        zone,
        ...(pool !== undefined ? { pool } : {}),
        epoch: 0,
        liveToken: null,
        reservation: null,
        enlistedAt: recorded.recordedAt,
        lastPosition: position,
        health: emptyNodeHealthView(),
      });
      stamp(changes, 'nodes', enlisted, position);
      return;
    }
    case 'NodeReserved': {
      const { reservationId, agentName, owner, expiresAt } = event.data;
      if (node) node.reservation = { reservationId, agentName, owner, expiresAt };
      touch();
      return;
    }
    case 'ReservationCancelled':
    case 'ReservationExpired':
      if (node?.reservation?.reservationId === event.data.reservationId) node.reservation = null;
      touch();
      return;
    case 'NodeAcquired': {
      const { nodeId, token, epoch, consumer, acquiredAt, reservationId, request } = event.data;
      if (node) {
        node.epoch = epoch;
        node.liveToken = token;
        if (reservationId !== null && node.reservation?.reservationId === reservationId) node.reservation = null;
      }
      touch();
      const allocation = (view.allocations[token] = {
        token,
        nodeId,
        epoch,
        consumer,
        status: 'allocated',
        live: true,
        acquiredAt,
        reservationId,
        requestId: request.requestId,
        deploymentFailures: [],
        ending: null,
        lastPosition: position,
      });
      stamp(changes, 'allocations', allocation, position);
      return;
    }
    case 'DeploymentReportRepeated':
      touch();
      return;
    case 'DeploymentStarted':
    case 'NodeDeployed':
    case 'DeploymentFailed': {
      const allocation = view.allocations[event.data.token];
      if (!allocation?.live) return;
      stamp(changes, 'allocations', allocation, position);
      if (event.type === 'DeploymentStarted') allocation.status = 'deploying';
      else if (event.type === 'NodeDeployed') allocation.status = 'deployed';
      else {
        allocation.status = 'failed_deployment';
        allocation.deploymentFailures.push({ reason: event.data.reason, source: event.data.source, at: event.data.at });
      }
      touch();
      return;
    }
    case 'AllocationOwnerDataSet': {
      const allocation = view.allocations[event.data.token];
      if (!allocation?.live) return;
      allocation.ownerData = { ...applyOwnerData(allocation.ownerData ?? {}, event.data) };
      stamp(changes, 'allocations', allocation, position);
      return;
    }
    case 'AllocationReleased':
    case 'AllocationRevoked': {
      const allocation = view.allocations[event.data.token];
      if (allocation) {
        allocation.live = false;
        stamp(changes, 'allocations', allocation, position);
        allocation.ending =
          event.type === 'AllocationReleased'
            ? { kind: event.data.ending, at: event.data.at }
            : { kind: 'revoked', at: event.data.observedAt, providerStatus: event.data.providerStatus, source: event.data.source };
        allocation.status = allocation.ending.kind;
      }
      if (node?.liveToken === event.data.token) node.liveToken = null;
      touch();
      return;
    }
  }
};
