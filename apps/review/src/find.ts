import { get, query } from './api';
import { shortToken } from './dom';
import type { Subject } from './story';
import type { AddressAnswer, AllocationAnswer, AuditEventsPage, Envelope, LeaseAnswer, NodeAnswer } from './ledger-json';

/** A search hit: what it is, in words, and the story it opens (at a position, when the hit is an event). */
export interface Hit {
  label: string;
  subject: Subject;
  at?: string;
}

export type FindKind = 'node' | 'token' | 'ip' | 'mac' | 'model' | 'time';

const nodeOfEvent = (event: Envelope): string | null =>
  event.data?.nodeId ??
  (typeof event.stream === 'string' && /^(node|refusals)-/.test(event.stream) && !/^refusals-(ledger|[0-9a-f.:]+)$/i.test(event.stream)
    ? event.stream.replace(/^(node|refusals)-/, '')
    : null);

/** Finds by node id, token (a stale instance id from some log), IP, MAC, controller/model, or a time range. */
export const find = async (kind: FindKind, text: string, until?: string): Promise<Hit[]> => {
  const value = text.trim();
  switch (kind) {
    case 'node': {
      const node = await get<NodeAnswer>(`/v1/nodes/${encodeURIComponent(value)}`);
      return [{ label: `node ${node.nodeId} (${node.hostname}): ${node.status} now, epoch ${node.epoch}`, subject: { kind: 'node', nodeId: node.nodeId } }];
    }
    case 'token': {
      const allocation = await get<AllocationAnswer>(`/v1/allocations/${encodeURIComponent(value)}`);
      const ended = allocation.ending ? `, ended: ${allocation.ending.kind} at ${allocation.ending.at}` : '';
      return [
        {
          label: `token ${shortToken(allocation.token)} is ${allocation.consumer.controller}/${allocation.consumer.model}'s allocation of node ${allocation.nodeId}, epoch ${allocation.epoch}: ${allocation.status}${allocation.current ? ' (current)' : ' (not current)'}${ended}`,
          subject: { kind: 'node', nodeId: allocation.nodeId },
        },
      ];
    }
    case 'ip': {
      const address = await get<AddressAnswer>(`/v1/leases/${encodeURIComponent(value)}`);
      const owners: Hit[] = (address.history ?? []).flatMap((lease) =>
        lease.owner?.nodeId === undefined
          ? []
          : [
              {
                label: `${lease.ip} leased to node ${lease.owner.nodeId} (${lease.status})`,
                subject: { kind: 'node', nodeId: lease.owner.nodeId },
              },
            ],
      );
      return [{ label: `address ${address.ip}: ${address.status}`, subject: { kind: 'address', ip: address.ip } }, ...owners];
    }
    case 'mac': {
      const found = await get<{ leases: LeaseAnswer[] }>(`/v1/leases${query({ mac: value })}`);
      if (found.leases.length === 0) return [];
      return found.leases.map((lease): Hit => ({
        label: `${lease.mac} held ${lease.ip} (${lease.status}), owner node ${lease.owner?.nodeId ?? 'unknown'}`,
        subject: { kind: 'address', ip: lease.ip },
      }));
    }
    case 'model': {
      const split = value.indexOf('/');
      if (split <= 0) throw new Error('write the model as controller/model, e.g. fair-clouds/mobile-app');
      const controller = value.slice(0, split);
      const model = value.slice(split + 1);
      const events = await get<AuditEventsPage>(`/v1/audit/events${query({ controller, model, limit: 1 })}`);
      if (events.events.length === 0) return [];
      return [{ label: `model ${controller}/${model}`, subject: { kind: 'model', controller, model } }];
    }
    case 'time': {
      const from = new Date(value);
      const to = until ? new Date(until) : null;
      if (Number.isNaN(from.getTime()) || (to && Number.isNaN(to.getTime()))) throw new Error('times must be like 2026-11-29T13:05:00Z');
      const page = await get<AuditEventsPage>(`/v1/audit/events${query({ from: from.toISOString(), to: to?.toISOString(), limit: 200 })}`);
      return page.events
        .map((event) => ({ event, nodeId: nodeOfEvent(event) }))
        .filter((hit): hit is { event: Envelope; nodeId: string } => hit.nodeId !== null)
        .map(({ event, nodeId }): Hit => ({
          label: `${event.recordedAt} #${event.position} ${event.type} on node ${nodeId}`,
          subject: { kind: 'node', nodeId },
          at: String(event.position),
        }));
    }
  }
};
