import type { Role } from '@ledger/access';

/**
 * How a consumer key's scope is checked on a route:
 * - 'body-consumer': the body's `consumer` must be in scope;
 * - 'token': the allocation named by the `:token` path parameter must be in scope;
 * - 'device': the allocation of the device named by the `:deviceId` path parameter must be in scope;
 * - 'none': no scope to check.
 */
export type ScopeCheck = 'body-consumer' | 'token' | 'device' | 'none';

export interface AccessRule {
  method: string;
  /** The route pattern exactly as the controller declares it. */
  path: string;
  roles: readonly Role[];
  consumerScope?: ScopeCheck;
  /** Body flags only an operator may set (e.g. a forced release). */
  operatorOnlyFlags?: readonly string[];
}

const ANYONE: readonly Role[] = ['consumer', 'provider', 'operator', 'auditor'];

/**
 * Who may do what: the one table. A route missing from it is open to operators only,
 * so a new endpoint is never accidentally public.
 */
export const ACCESS_POLICY: readonly AccessRule[] = [
  { method: 'GET', path: '/healthz', roles: [] },
  { method: 'GET', path: '/healthz/live', roles: [] },
  { method: 'GET', path: '/healthz/ready', roles: [] },
  { method: 'GET', path: '/metrics', roles: ['operator', 'auditor'] },
  { method: 'GET', path: '/v1/whoami', roles: ANYONE },

  { method: 'POST', path: '/v1/nodes', roles: ['provider', 'operator'] },
  { method: 'GET', path: '/v1/nodes', roles: ANYONE },
  { method: 'GET', path: '/v1/nodes/:nodeId', roles: ANYONE },
  { method: 'POST', path: '/v1/nodes/:nodeId/reservations', roles: ['consumer', 'operator'] },
  { method: 'DELETE', path: '/v1/nodes/:nodeId/reservations/:reservationId', roles: ['consumer', 'operator'] },
  // Seed 4: maintenance is the operator's facility, and nobody else's.
  { method: 'POST', path: '/v1/nodes/:nodeId/maintenance', roles: ['operator'] },
  { method: 'DELETE', path: '/v1/nodes/:nodeId/maintenance', roles: ['operator'] },

  { method: 'POST', path: '/v1/allocations', roles: ['consumer', 'operator'], consumerScope: 'body-consumer' },
  { method: 'GET', path: '/v1/allocations/:token', roles: ANYONE, consumerScope: 'token' },
  { method: 'POST', path: '/v1/allocations/:token/deploying', roles: ['consumer', 'provider', 'operator'], consumerScope: 'token' },
  { method: 'POST', path: '/v1/allocations/:token/deployed', roles: ['consumer', 'provider', 'operator'], consumerScope: 'token' },
  { method: 'POST', path: '/v1/allocations/:token/failed', roles: ['consumer', 'provider', 'operator'], consumerScope: 'token' },
  { method: 'POST', path: '/v1/allocations/:token/release', roles: ['consumer', 'operator'], consumerScope: 'token', operatorOnlyFlags: ['force'] },
  // The holder's labels (MAAS's set_owner_data): the consumer's, as MAAS keeps them per owner.
  { method: 'POST', path: '/v1/allocations/:token/owner-data', roles: ['consumer', 'operator'], consumerScope: 'token' },
  { method: 'POST', path: '/v1/models/release', roles: ['operator'] },

  { method: 'POST', path: '/v1/observations/nodes', roles: ['provider', 'operator'] },
  { method: 'POST', path: '/v1/observations/power', roles: ['provider', 'operator'] },
  { method: 'POST', path: '/v1/reconcile', roles: ['consumer', 'operator', 'auditor'], consumerScope: 'body-consumer' },

  // Seed 2: a consumer registers its containers under its own allocations; addresses are the
  // provider's (MAAS, the DHCP server) to grant. Lease listings name other owners' tokens, so
  // consumers ask about their own addresses through reconcile instead.
  { method: 'POST', path: '/v1/allocations/:token/devices', roles: ['consumer', 'provider', 'operator'], consumerScope: 'token' },
  { method: 'POST', path: '/v1/devices/:deviceId/remove', roles: ['consumer', 'provider', 'operator'], consumerScope: 'device' },
  { method: 'GET', path: '/v1/devices/:deviceId', roles: ANYONE, consumerScope: 'device' },
  { method: 'POST', path: '/v1/leases', roles: ['provider', 'operator'] },
  { method: 'POST', path: '/v1/leases/:ip/renew', roles: ['provider', 'operator'] },
  { method: 'POST', path: '/v1/leases/:ip/release', roles: ['provider', 'operator'] },
  // A DHCP agent (a provider key) records the bindings it deleted at its server.
  { method: 'POST', path: '/v1/leases/:ip/reclaims', roles: ['provider', 'operator'] },
  { method: 'GET', path: '/v1/leases', roles: ['provider', 'operator', 'auditor'] },
  { method: 'GET', path: '/v1/leases/:ip', roles: ['provider', 'operator', 'auditor'] },
  { method: 'POST', path: '/v1/observations/leases', roles: ['provider', 'operator'] },
  { method: 'GET', path: '/v1/audit/events', roles: ['operator', 'auditor'] },
  { method: 'GET', path: '/v1/audit/nodes/:nodeId/timeline', roles: ['operator', 'auditor'] },
  { method: 'GET', path: '/v1/audit/stream', roles: ['operator', 'auditor'] },
  { method: 'GET', path: '/v1/state', roles: ['operator', 'auditor'] },
  { method: 'GET', path: '/v1/state/nodes/:nodeId', roles: ['operator', 'auditor'] },
  { method: 'GET', path: '/v1/state/addresses/:ip', roles: ['operator', 'auditor'] },
  { method: 'GET', path: '/v1/state/models/:controller/:model', roles: ['operator', 'auditor'] },
  // The review page and its assets hold no data: every answer it shows needs a key.
  { method: 'GET', path: '/review', roles: [] },
  { method: 'GET', path: '/review/assets/:file', roles: [] },
  { method: 'GET', path: '/v1/admin/projections', roles: ['operator'] },
  { method: 'POST', path: '/v1/admin/projections/:name/rebuild', roles: ['operator'] },
];

export const ruleFor = (method: string, path: string): AccessRule | undefined => ACCESS_POLICY.find((rule) => rule.method === method && rule.path === path);
