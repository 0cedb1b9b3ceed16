import { deviceJson, interfaceJson, type StandInDevice, type StandInInterface, type StandInMachine } from './maas-objects';
import { fieldErrors, notFound, ok, unrecognised, type ReceivedRequest, type StandInAnswer } from './stand-in-request';

const MAC = /^([0-9a-f]{2}:){5}[0-9a-f]{2}$/i;

/** What MAAS's devices and interfaces endpoints do: containers registered as devices under a machine, and their NICs. */
export class StandInDevices {
  readonly devices = new Map<string, StandInDevice>();

  constructor(
    private readonly machines: Map<string, StandInMachine>,
    private readonly user: string,
    private readonly newId: () => string,
    private readonly newInterfaceId: () => number,
  ) {}

  create(form: URLSearchParams): StandInAnswer {
    const macs = form.getAll('mac_addresses');
    const parent = form.get('parent');
    const errors: Record<string, string[]> = {};
    if (macs.length === 0) errors.mac_addresses = ['This field is required.'];
    const bad = macs.filter((mac) => !MAC.test(mac));
    if (bad.length > 0) errors.mac_addresses = [`'${bad[0]}' is not a valid MAC address.`];
    if (parent !== null && !this.machines.has(parent)) errors.parent = [`Select a valid choice. ${parent} is not one of the available choices.`];
    if (Object.keys(errors).length > 0) return fieldErrors(errors);
    const device: StandInDevice = {
      systemId: this.newId(),
      hostname: form.get('hostname') ?? `device-${this.devices.size + 1}`,
      parent,
      owner: this.user,
      interfaces: macs.map((mac, index) => ({ id: this.newInterfaceId(), name: `eth${index}`, mac: mac.toLowerCase(), links: [] })),
    };
    this.devices.set(device.systemId, device);
    return ok(deviceJson(device));
  }

  list(query: URLSearchParams): StandInAnswer {
    const ids = query.getAll('id');
    const macs = query.getAll('mac_address').map((m) => m.toLowerCase());
    const listed = [...this.devices.values()].filter(
      (d) => (ids.length === 0 || ids.includes(d.systemId)) && (macs.length === 0 || d.interfaces.some((i) => macs.includes(i.mac))),
    );
    return ok(listed.map(deviceJson));
  }

  one(request: ReceivedRequest, id: string): StandInAnswer {
    const device = this.devices.get(id);
    if (!device) return notFound();
    if (request.method === 'GET' && !request.op) return ok(deviceJson(device));
    if (request.method === 'DELETE') {
      this.devices.delete(id);
      return { status: 204 };
    }
    return unrecognised(request);
  }

  /** nodes/{id}/interfaces/ and nodes/{id}/interfaces/{n}/: a machine's or a device's NICs. */
  interfaces(request: ReceivedRequest, nodeId: string, interfaceId: string | undefined): StandInAnswer {
    const owner = this.machines.get(nodeId) ?? this.devices.get(nodeId);
    if (!owner) return notFound();
    if (interfaceId === undefined) {
      if (request.method === 'GET' && !request.op) return ok(owner.interfaces.map((i) => interfaceJson(nodeId, i)));
      if (request.method === 'POST' && request.op === 'create_physical') {
        const mac = request.form.get('mac_address') ?? '';
        if (!MAC.test(mac)) return fieldErrors({ mac_address: [`'${mac}' is not a valid MAC address.`] });
        const iface: StandInInterface = { id: this.newInterfaceId(), name: request.form.get('name') ?? 'eth', mac: mac.toLowerCase(), links: [] };
        owner.interfaces.push(iface);
        return ok(interfaceJson(nodeId, iface));
      }
      return unrecognised(request);
    }
    const iface = owner.interfaces.find((i) => String(i.id) === interfaceId);
    if (!iface) return notFound();
    if (request.method === 'GET' && !request.op) return ok(interfaceJson(nodeId, iface));
    if (request.method === 'PUT') {
      iface.name = request.form.get('name') ?? iface.name;
      return ok(interfaceJson(nodeId, iface));
    }
    if (request.method === 'POST' && request.op === 'link_subnet') {
      const subnetId = Number(request.form.get('subnet'));
      if (!Number.isInteger(subnetId)) return fieldErrors({ subnet: ['This field is required.'] });
      const mode = request.form.get('mode') ?? 'LINK_UP';
      iface.links.push({ id: this.newInterfaceId(), mode, subnetId, ip: mode === 'STATIC' ? `10.20.0.${100 + iface.id}` : '' });
      return ok(interfaceJson(nodeId, iface));
    }
    return unrecognised(request);
  }
}
