import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { API, poolJson, spacesJson, SUBNETS, subnetJson, vlanJson, zoneJson, type StandInMachine } from './maas-objects';
import { StandInMachines } from './stand-in-machines';
import { StandInDevices } from './stand-in-devices';
import { notFound, oauthParameters, ok, readBody, text, unrecognised, type ReceivedRequest, type StandInAnswer } from './stand-in-request';

export interface StandInMachineSpec {
  systemId: string;
  hostname: string;
  cpuCount?: number;
  memoryMb?: number;
  tags?: string[];
  zone?: string;
  pool?: string;
  macs?: string[];
}

/**
 * A TEST DOUBLE OF MAAS: a small HTTP server playing MAAS 2.0's side of the API, with
 * machines, devices and interfaces, and the state changes an operator makes in MAAS's UI
 * (a deployment failing, a machine released or taken out of band). No MAAS can run here;
 * this is what the MAAS facade is tested against. It is never the facade's upstream in
 * production, and lives under test/ for that reason.
 */
export class MaasStandIn {
  /** Every request received, in order: what a test asserts MAAS was, or never was, asked. */
  readonly received: ReceivedRequest[] = [];
  readonly machines = new Map<string, StandInMachine>();
  private readonly machineApi: StandInMachines;
  private readonly deviceApi: StandInDevices;
  private server: Server | null = null;
  private allocationsHeld: Promise<void> | null = null;
  private nextId = 1;

  /** `apiKey` is the only key it accepts (the facade's own), `consumer:token:secret`. */
  constructor(
    private readonly apiKey: string,
    readonly user = 'ledger-facade',
  ) {
    this.machineApi = new StandInMachines(this.machines, user, (machine) => this.releaseMachine(machine));
    this.deviceApi = new StandInDevices(
      this.machines,
      user,
      () => `dev${String(this.nextId++).padStart(3, '0')}`,
      () => this.nextId++,
    );
  }

  addMachine(spec: StandInMachineSpec): void {
    this.machines.set(spec.systemId, {
      systemId: spec.systemId,
      hostname: spec.hostname,
      arch: 'amd64/generic',
      cpuCount: spec.cpuCount ?? 4,
      memoryMb: spec.memoryMb ?? 8192,
      tags: spec.tags ?? [],
      zone: spec.zone ?? 'default',
      pool: spec.pool ?? 'default',
      status: 'Ready',
      owner: null,
      agentName: '',
      ownerData: {},
      interfaces: (spec.macs ?? [`52:54:00:00:00:${String(this.machines.size + 1).padStart(2, '0')}`]).map((mac, index) => ({
        id: this.nextId++,
        name: `eth${index}`,
        mac,
        links: [{ id: this.nextId++, mode: 'AUTO', subnetId: SUBNETS[0].id, ip: '' }],
      })),
    });
  }

  get devices() {
    return this.deviceApi.devices;
  }

  // What an operator does in MAAS's UI, behind every client's back.
  failDeployment(systemId: string): void {
    this.machine(systemId).status = 'Failed deployment';
  }
  finishDeployment(systemId: string): void {
    this.machine(systemId).status = 'Deployed';
  }
  releaseOutOfBand(systemId: string): void {
    this.releaseMachine(this.machine(systemId));
  }
  allocateOutOfBand(systemId: string, owner: string): void {
    const machine = this.machine(systemId);
    machine.status = 'Allocated';
    machine.owner = owner;
  }

  /** Holds every allocate answer until the returned function is called: for a test in which something must happen meanwhile. */
  holdAllocations(): () => void {
    let answer!: () => void;
    this.allocationsHeld = new Promise((resolve) => (answer = resolve));
    return () => {
      this.allocationsHeld = null;
      answer();
    };
  }

  /** Requests that asked MAAS to release `systemId` (through machines/?op=release or machines/{id}/?op=release). */
  releasesOf(systemId: string): ReceivedRequest[] {
    return this.received.filter(
      (r) => r.op === 'release' && (r.path === `machines/${systemId}/` || (r.path === 'machines/' && r.form.getAll('machines').includes(systemId))),
    );
  }

  async start(): Promise<string> {
    this.server = createServer((request, response) => void this.serve(request, response));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/MAAS/`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }

  private machine(systemId: string): StandInMachine {
    const machine = this.machines.get(systemId);
    if (!machine) throw new Error(`the stand-in has no machine ${systemId}`);
    return machine;
  }

  /** MAAS releases a machine's child devices with it. */
  private releaseMachine(machine: StandInMachine): void {
    machine.status = 'Ready';
    machine.owner = null;
    machine.agentName = '';
    machine.ownerData = {};
    for (const [id, device] of this.deviceApi.devices) if (device.parent === machine.systemId) this.deviceApi.devices.delete(id);
  }

  private async serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://maas');
    const body = await readBody(request);
    const received: ReceivedRequest = {
      method: request.method ?? 'GET',
      path: url.pathname.startsWith(`${API}/`) ? url.pathname.slice(API.length + 1) : url.pathname,
      op: url.searchParams.get('op') || null,
      query: url.searchParams,
      form: String(request.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded') ? new URLSearchParams(body) : new URLSearchParams(),
    };
    this.received.push(received);
    if (received.op === 'allocate' && this.allocationsHeld) await this.allocationsHeld;
    const answer = this.answer(received, request.headers.authorization);
    if (answer.json !== undefined) {
      response.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.json));
    } else {
      response.writeHead(answer.status, answer.text ? { 'content-type': 'text/plain; charset=utf-8' } : {}).end(answer.text ?? '');
    }
  }

  private answer(request: ReceivedRequest, authorization: string | undefined): StandInAnswer {
    if (request.path === 'version/' && request.method === 'GET') {
      return ok({
        capabilities: ['networks-management', 'static-ipaddresses', 'devices-management', 'network-deployment-ubuntu'],
        version: '3.4.2',
        subversion: '',
      });
    }
    const oauth = oauthParameters(authorization);
    const [consumer, token, secret] = this.apiKey.split(':');
    if (oauth.oauth_consumer_key !== consumer || oauth.oauth_token !== token || oauth.oauth_signature !== `&${secret}`) {
      return text(401, 'Authorization Error: Invalid API key.');
    }
    const [collection, id, sub, subId] = request.path.split('/').filter(Boolean);
    switch (collection) {
      case 'users':
        return request.op === 'whoami' ? ok({ username: this.user, email: `${this.user}@example.com`, is_superuser: true }) : unrecognised(request);
      case 'machines':
        if (id) return this.machineApi.one(request, id);
        if (request.method === 'GET' && !request.op) return this.machineApi.list(request);
        if (request.method === 'POST' && request.op === 'allocate') return this.machineApi.allocate(request.form);
        if (request.method === 'POST' && request.op === 'release') return this.machineApi.release(request.form.getAll('machines'));
        return unrecognised(request);
      case 'devices':
        if (id) return this.deviceApi.one(request, id);
        if (request.method === 'GET' && !request.op) return this.deviceApi.list(request.query);
        if (request.method === 'POST' && !request.op) return this.deviceApi.create(request.form);
        return unrecognised(request);
      case 'nodes':
        return id && sub === 'interfaces' ? this.deviceApi.interfaces(request, id, subId) : notFound();
      case 'spaces':
        return ok(spacesJson());
      case 'subnets':
        return ok(SUBNETS.map(subnetJson));
      case 'vlans':
        return ok([vlanJson()]);
      case 'fabrics':
        return ok([{ id: 0, name: 'fabric-0', class_type: null, resource_uri: `${API}/fabrics/0/`, vlans: [vlanJson()] }]);
      case 'zones':
        return ok([zoneJson('default'), zoneJson('rack-2')]);
      case 'resourcepools':
      case 'pools':
        return ok([poolJson('default')]);
      default:
        return notFound();
    }
  }
}
