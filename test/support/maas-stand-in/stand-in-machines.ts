import { machineJson, type StandInMachine } from './maas-objects';
import { fieldErrors, notFound, ok, text, unrecognised, type ReceivedRequest, type StandInAnswer } from './stand-in-request';

/** What MAAS's machines endpoints do, on the stand-in's state: list, allocate, deploy, owner data, release. */
export class StandInMachines {
  constructor(
    readonly machines: Map<string, StandInMachine>,
    private readonly user: string,
    private readonly onRelease: (machine: StandInMachine) => void,
  ) {}

  list(request: ReceivedRequest): StandInAnswer {
    const ids = request.query.getAll('id');
    const hostnames = request.query.getAll('hostname');
    const agentName = request.query.get('agent_name');
    const listed = [...this.machines.values()].filter(
      (m) =>
        (ids.length === 0 || ids.includes(m.systemId)) &&
        (hostnames.length === 0 || hostnames.includes(m.hostname)) &&
        (agentName === null || m.agentName === agentName),
    );
    return ok(listed.map(machineJson));
  }

  allocate(form: URLSearchParams): StandInAnswer {
    const errors: Record<string, string[]> = {};
    for (const field of ['cpu_count', 'mem']) {
      const value = form.get(field);
      if (value !== null && !/^\d+(\.\d+)?$/.test(value)) errors[field] = [`Invalid number: ${value}`];
    }
    if (Object.keys(errors).length > 0) return fieldErrors(errors);
    const tags = form.getAll('tags').flatMap((t) => t.split(','));
    const notTags = form.getAll('not_tags').flatMap((t) => t.split(','));
    const wanted = (m: StandInMachine) =>
      m.status === 'Ready' &&
      (form.get('name') === null || m.hostname === form.get('name') || `${m.hostname}.maas` === form.get('name')) &&
      (form.get('system_id') === null || m.systemId === form.get('system_id')) &&
      (form.get('arch') === null || m.arch.startsWith(form.get('arch') ?? '')) &&
      m.cpuCount >= Number(form.get('cpu_count') ?? 0) &&
      m.memoryMb >= Number(form.get('mem') ?? 0) &&
      tags.every((t) => m.tags.includes(t)) &&
      !notTags.some((t) => m.tags.includes(t)) &&
      (form.get('zone') === null || m.zone === form.get('zone')) &&
      (form.get('pool') === null || m.pool === form.get('pool'));
    const machine = [...this.machines.values()].find(wanted);
    if (!machine) {
      const asked = [...form.entries()].map(([k, v]) => `${k}=${v}`).join(', ');
      return text(409, `No available machine matches constraints: [${asked}]`);
    }
    machine.status = 'Allocated';
    machine.owner = this.user;
    machine.agentName = form.get('agent_name') ?? '';
    return ok({ ...machineJson(machine), constraints_by_type: {} });
  }

  release(ids: string[]): StandInAnswer {
    const unknown = ids.filter((id) => !this.machines.has(id));
    if (unknown.length > 0) return text(400, `Unknown machine(s): ${unknown.join(', ')}.`);
    const stuck = ids.filter((id) => this.machines.get(id)!.status === 'Ready');
    for (const id of ids) if (!stuck.includes(id)) this.onRelease(this.machines.get(id)!);
    if (stuck.length > 0) return text(409, `Machine(s) cannot be released in their current state: ${stuck.join(', ')}.`);
    return ok(ids);
  }

  /** machines/{id}/ with or without an op. */
  one(request: ReceivedRequest, id: string): StandInAnswer {
    const machine = this.machines.get(id);
    if (!machine) return notFound();
    if (request.method === 'GET' && !request.op) return ok(machineJson(machine));
    if (request.method !== 'POST') return unrecognised(request);
    switch (request.op) {
      case 'deploy':
        if (machine.status !== 'Allocated') return text(409, `Can't deploy a machine that is in the '${machine.status}' state.`);
        machine.status = 'Deploying';
        return ok(machineJson(machine));
      case 'set_owner_data':
        for (const [key, value] of request.form.entries()) {
          if (value === '') delete machine.ownerData[key];
          else machine.ownerData[key] = value;
        }
        return ok(machineJson(machine));
      case 'release':
        return this.release([id]).status === 200
          ? ok(machineJson(machine))
          : text(409, `Machine cannot be released in its current state ('${machine.status}').`);
      default:
        return unrecognised(request);
    }
  }
}
