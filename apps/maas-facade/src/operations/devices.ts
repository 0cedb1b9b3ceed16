import { fieldErrors, json, noContent, noLongerYours, notFound, text, type MaasAnswer } from '../maas/maas-answer';
import { liveMachinesOf, standingOf, type LiveMachine } from '../ledger/caller-machines';
import { LedgerUnavailable } from '../ledger/ledger-access';
import { IdMap } from '../ids/id-map';
import type { FacadeContext } from './facade-request';

interface MaasDevice {
  system_id?: unknown;
  hostname?: unknown;
  parent?: unknown;
  interface_set?: { mac_address?: unknown }[];
}

const macsOf = (device: MaasDevice): string[] => (device.interface_set ?? []).map((i) => i.mac_address).filter((mac): mac is string => typeof mac === 'string');

/**
 * POST devices/ with a parent (Juju's LXD containers): the parent is the caller's id,
 * mapped to MAAS's machine; the device MAAS creates is registered with each of its MACs
 * under the parent's allocation in the ledger, so it ends with that allocation and its
 * addresses' leases follow (seed 2). If the allocation ended meanwhile, the device is
 * deleted again and the caller told its machine is gone.
 */
export const createDevice = async (context: FacadeContext): Promise<MaasAnswer> => {
  const { request, caller, maas } = context;
  const parentId = request.form.get('parent');
  if (!parentId) return fieldErrors({ parent: ['A device is created under one of your machines: parent is required.'] });
  const standing = await standingOf(caller, parentId, await liveMachinesOf(caller));
  if (standing.kind === 'unknown') return fieldErrors({ parent: [`Select a valid choice. ${parentId.slice(0, 128)} is not one of the available choices.`] });
  if (standing.kind === 'stale') return noLongerYours(parentId);
  const map = new IdMap([standing.machine]);
  const created = await maas.request({ method: 'POST', path: 'devices/', query: map.paramsToMaas(request.query), form: map.paramsToMaas(request.form) });
  if (created.status !== 200) return created;
  const device = created.json as MaasDevice;
  const hostname = typeof device.hostname === 'string' ? device.hostname : 'device';
  for (const mac of macsOf(device)) {
    const { data, error, response } = await caller.ledger.POST('/v1/allocations/{token}/devices', {
      params: { path: { token: standing.machine.token } },
      body: { hostname: hostname.slice(0, 253), mac },
    });
    if (data) continue;
    await maas.request({ method: 'DELETE', path: `devices/${String(device.system_id)}/` });
    if (response.status === 409) return noLongerYours(parentId);
    if (response.status === 400) return text(400, (error as { message?: string } | undefined)?.message ?? 'the device was refused');
    throw new LedgerUnavailable(`the ledger answered a device registration with ${response.status}`);
  }
  return json(map.toCaller(device));
};

/** GET devices/: only devices under the caller's live machines, parents under the caller's ids. */
export const listDevices = async ({ request, caller, maas }: FacadeContext): Promise<MaasAnswer> => {
  const map = new IdMap(await liveMachinesOf(caller));
  const answer = await maas.request({ method: 'GET', path: 'devices/', query: map.paramsToMaas(request.query) });
  if (answer.status !== 200 || !Array.isArray(answer.json)) return answer;
  const mine = (answer.json as MaasDevice[]).filter((device) => typeof device.parent === 'string' && map.callerIdOf(device.parent) !== undefined);
  return json(map.toCaller(mine));
};

/** The caller's live machine a MAAS device hangs under, with the device; null if none of the caller's. */
export const deviceOfCaller = async ({ caller, maas }: FacadeContext, deviceId: string): Promise<{ device: MaasDevice; parent: LiveMachine } | null> => {
  const answer = await maas.request({ method: 'GET', path: `devices/${encodeURIComponent(deviceId)}/` });
  if (answer.status !== 200) return null;
  const device = answer.json as MaasDevice;
  const parent = (await liveMachinesOf(caller)).find((m) => m.nodeId === device.parent);
  return parent ? { device, parent } : null;
};

/**
 * devices/{id}/: the caller's own devices only. DELETE removes the device from the ledger
 * (its leases follow) before MAAS deletes it.
 */
export const deviceOperation = async (context: FacadeContext, deviceId: string): Promise<MaasAnswer> => {
  const { request, caller, maas } = context;
  const owned = await deviceOfCaller(context, deviceId);
  if (!owned) return notFound();
  const map = new IdMap([owned.parent]);
  if (request.method === 'DELETE') {
    const { data, response } = await caller.ledger.GET('/v1/allocations/{token}', { params: { path: { token: owned.parent.token } } });
    if (!data) throw new LedgerUnavailable(`the ledger answered GET /v1/allocations/{token} with ${response.status}`);
    const macs = macsOf(owned.device).map((mac) => mac.toLowerCase());
    for (const registered of data.devices.filter((d) => d.live && macs.includes(d.mac.toLowerCase()))) {
      const removed = await caller.ledger.POST('/v1/devices/{deviceId}/remove', { params: { path: { deviceId: registered.deviceId } } });
      if (!removed.data && removed.response.status !== 409) throw new LedgerUnavailable(`the ledger answered a device removal with ${removed.response.status}`);
    }
    const answer = await maas.request({ method: 'DELETE', path: `devices/${encodeURIComponent(deviceId)}/` });
    return answer.status >= 200 && answer.status < 300 ? noContent() : answer;
  }
  const answer = await maas.request({
    method: request.method,
    path: request.path,
    query: map.paramsToMaas(request.query),
    ...(request.raw ? { raw: request.raw } : { form: map.paramsToMaas(request.form) }),
  });
  return answer.json !== undefined ? json(map.toCaller(answer.json), answer.status) : answer;
};
