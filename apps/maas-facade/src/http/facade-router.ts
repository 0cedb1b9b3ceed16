import { json, notFound, unrecognised, type MaasAnswer } from '../maas/maas-answer';
import { listMachines } from '../operations/list-machines';
import { allocateMachine } from '../operations/allocate-machine';
import { releaseMachines } from '../operations/release-machines';
import { machineOperation } from '../operations/machine-operations';
import { createDevice, deviceOperation, listDevices } from '../operations/devices';
import { nodeOperation, passThrough } from '../operations/passthrough';
import type { FacadeContext } from '../operations/facade-request';

/**
 * Which operation answers a request: the few MAAS calls that name machines are intercepted
 * (listing, allocate, release, a machine's ops, devices, interfaces); the rest pass
 * through with ids mapped. Collection-wide ops on machines other than Juju's are not
 * served: they would show or touch machines the caller does not hold.
 */
export const routeRequest = (context: FacadeContext): Promise<MaasAnswer> | MaasAnswer => {
  const { method, path, op } = context.request;
  const [collection, id] = path.split('/').filter(Boolean);
  switch (collection) {
    case 'users':
      if (!id && method === 'GET' && op === 'whoami') {
        return json({ username: context.caller.principal.name, email: '', is_superuser: false, is_local: true });
      }
      return unrecognised(method, op);
    case 'machines':
      if (id) return machineOperation(context, id);
      if (method === 'GET' && !op) return listMachines(context);
      if (method === 'POST' && op === 'allocate') return allocateMachine(context);
      if (method === 'POST' && op === 'release') return releaseMachines(context);
      return unrecognised(method, op);
    case 'devices':
      if (id) return deviceOperation(context, id);
      if (method === 'GET' && !op) return listDevices(context);
      if (method === 'POST' && !op) return createDevice(context);
      return unrecognised(method, op);
    case 'nodes':
      return id ? nodeOperation(context, id) : notFound();
    default:
      return passThrough(context);
  }
};
