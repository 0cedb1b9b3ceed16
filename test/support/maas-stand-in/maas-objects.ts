/**
 * The shapes of MAAS 2.0's API objects, as a test double of MAAS returns them: every field
 * Juju's MAAS client (gomaasapi) requires of a machine, device, interface, link, VLAN,
 * subnet, space, zone and resource pool, with MAAS's own resource URIs.
 */
export const API = '/MAAS/api/2.0';

export interface StandInInterface {
  id: number;
  name: string;
  mac: string;
  links: { id: number; mode: string; subnetId: number; ip: string }[];
}

export interface StandInMachine {
  systemId: string;
  hostname: string;
  arch: string;
  cpuCount: number;
  memoryMb: number;
  tags: string[];
  zone: string;
  pool: string;
  status: 'New' | 'Ready' | 'Allocated' | 'Deploying' | 'Deployed' | 'Failed deployment';
  owner: string | null;
  agentName: string;
  ownerData: Record<string, string>;
  interfaces: StandInInterface[];
}

export interface StandInDevice {
  systemId: string;
  hostname: string;
  parent: string | null;
  owner: string;
  interfaces: StandInInterface[];
}

export const vlanJson = () => ({
  id: 5001,
  resource_uri: `${API}/vlans/5001/`,
  name: 'untagged',
  fabric: 'fabric-0',
  fabric_id: 0,
  vid: 0,
  mtu: 1500,
  dhcp_on: true,
  primary_rack: 'rack01',
  secondary_rack: null,
});

export const SUBNETS = [
  { id: 1, cidr: '10.20.0.0/24', gateway: '10.20.0.1', space: 'default' },
  { id: 2, cidr: '10.30.0.0/24', gateway: '10.30.0.1', space: 'storage' },
];

export const subnetJson = (subnet: (typeof SUBNETS)[number]) => ({
  id: subnet.id,
  resource_uri: `${API}/subnets/${subnet.id}/`,
  name: subnet.cidr,
  space: subnet.space,
  gateway_ip: subnet.gateway,
  cidr: subnet.cidr,
  vlan: vlanJson(),
  dns_servers: [],
});

export const spacesJson = () =>
  [...new Set(SUBNETS.map((s) => s.space))].map((name, index) => ({
    id: index,
    name,
    resource_uri: `${API}/spaces/${index}/`,
    subnets: SUBNETS.filter((s) => s.space === name).map(subnetJson),
  }));

export const zoneJson = (name: string) => ({ id: 1, name, description: '', resource_uri: `${API}/zones/${name}/` });
export const poolJson = (name: string) => ({ id: 0, name, description: '', resource_uri: `${API}/resourcepool/0/` });

export const interfaceJson = (nodeId: string, iface: StandInInterface) => ({
  id: iface.id,
  name: iface.name,
  type: 'physical',
  enabled: true,
  tags: [],
  vlan: vlanJson(),
  links: iface.links.map((link) => {
    const subnet = SUBNETS.find((s) => s.id === link.subnetId);
    return { id: link.id, mode: link.mode.toLowerCase(), ip_address: link.ip, ...(subnet ? { subnet: subnetJson(subnet) } : {}) };
  }),
  mac_address: iface.mac,
  effective_mtu: 1500,
  parents: [],
  children: [],
  system_id: nodeId,
  resource_uri: `${API}/nodes/${nodeId}/interfaces/${iface.id}/`,
});

export const machineJson = (m: StandInMachine) => ({
  resource_uri: `${API}/machines/${m.systemId}/`,
  system_id: m.systemId,
  hostname: m.hostname,
  fqdn: `${m.hostname}.maas`,
  domain: { name: 'maas', id: 0 },
  tag_names: m.tags,
  owner: m.owner,
  owner_data: m.ownerData,
  osystem: m.status === 'Ready' ? '' : 'ubuntu',
  distro_series: m.status === 'Ready' ? '' : 'jammy',
  architecture: m.arch,
  memory: m.memoryMb,
  cpu_count: m.cpuCount,
  hardware_info: { system_vendor: 'QEMU', cpu_model: 'Virtual CPU' },
  ip_addresses: m.interfaces.flatMap((i) => i.links.map((l) => l.ip)).filter(Boolean),
  power_state: m.status === 'Ready' ? 'off' : 'on',
  status_name: m.status,
  status_message: null,
  boot_interface: m.interfaces[0] ? interfaceJson(m.systemId, m.interfaces[0]) : null,
  interface_set: m.interfaces.map((i) => interfaceJson(m.systemId, i)),
  zone: zoneJson(m.zone),
  pool: poolJson(m.pool),
  physicalblockdevice_set: [],
  blockdevice_set: [],
});

export const deviceJson = (d: StandInDevice) => ({
  resource_uri: `${API}/devices/${d.systemId}/`,
  system_id: d.systemId,
  hostname: d.hostname,
  fqdn: `${d.hostname}.maas`,
  parent: d.parent,
  owner: d.owner,
  ip_addresses: d.interfaces.flatMap((i) => i.links.map((l) => l.ip)).filter(Boolean),
  interface_set: d.interfaces.map((i) => interfaceJson(d.systemId, i)),
  zone: zoneJson('default'),
  pool: null,
});
