import assert from 'node:assert/strict';
import type { LedgerProcess } from '@ledger/testing';
import type { DhcpLab, LabClient } from './dhcp-lab';
import { consumer, enlist, newRequestId } from './fixtures';
import type { Acquired } from './answers';

/** GET /v1/leases/:ip, as far as the DHCP agent's tests read it. */
export type IpView = {
  status: string;
  current: { learnedFrom: string | null; owner: { deviceId?: string } } | null;
  history: { leaseId: string; ended: { reason: string | null; how: string } | null }[];
};

/** An event of GET /v1/audit/events, as far as the DHCP agent's tests read it. */
export type AuditEvent = { type: string; data: Record<string, unknown>; metadata: { actor: string } };

/**
 * The ledger's side of a DHCP story, shared by the tests of the agent beside each server: a
 * machine acquired for a model, its containers registered as devices (each a lab namespace with
 * the device's MAC), and what the ledger then says of an address.
 */
export const dhcpLedger = (ledger: LedgerProcess) => ({
  head: async (): Promise<number> => await ledger.storeHead(),
  ipView: async (address: string): Promise<IpView> => (await ledger.get(`/v1/leases/${address}`)).body as IpView,

  /** Enlists `nodeId` and acquires it for the model: the allocation's token. */
  acquire: async (nodeId: string, controller: string, model: string): Promise<string> => {
    assert.equal((await enlist(ledger, nodeId)).status, 201);
    const acquired = await ledger.post<Acquired>('/v1/allocations', { requestId: newRequestId('acquire'), consumer: consumer(controller, model, '0'), nodeId });
    assert.equal(acquired.status, 201, JSON.stringify(acquired.body));
    return acquired.body.token as string;
  },

  /** The DHCP server's records of an address the ledger appended after `position`: state, MAC and who posted them. */
  observedSince: async (ip: string, position: number): Promise<[string, string, string][]> => {
    const events = (await ledger.get(`/v1/audit/events?ip=${ip}&type=DhcpLeaseObserved&after=${position}`)).body.events as {
      data: { state: string; mac: string };
      metadata: { actor: string };
    }[];
    return events.map((event) => [event.data.state, event.data.mac, event.metadata.actor]);
  },

  /** A container of the allocation: a device registered with `mac`, and a lab namespace whose interface has it. */
  register: async (lab: DhcpLab, token: string, name: string, mac: string): Promise<LabClient & { deviceId: string }> => {
    const device = await ledger.post(`/v1/allocations/${token}/devices`, { hostname: name, mac });
    assert.equal(device.status, 201, JSON.stringify(device.body));
    return Object.assign(lab.container(name, mac), { deviceId: device.body.deviceId as string });
  },
});
