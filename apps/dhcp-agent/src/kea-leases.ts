import { closeSync } from 'node:fs';
import { keaLeaseFileFamily, keaV6DuidMac, normalizeMac } from '@ledger/lease-files';
import { KeaControlError, type KeaAnswer, type KeaControl } from './kea-control';
import { readFirstLine } from './line-reader';
import { tryOpen } from './open-file';

/** What Kea holds for an address: the client's MAC, or null when Kea knows none (a DHCPv6 client without one). */
export interface KeaHeld {
  mac: string | null;
}

const familyOf = (ip: string): 4 | 6 => (ip.includes(':') ? 6 : 4);

const refused = (command: string, answer: KeaAnswer, ip?: string) =>
  new KeaControlError(`Kea refused ${command}${ip ? ` for ${ip}` : ''} (result ${answer.result}): ${answer.text.slice(0, 300)}`);

/**
 * What Kea holds for an address (lease4-get, or lease6-get for an IPv6 address: an IA_NA
 * lease, Kea's default type): the MAC it recorded for the client (`hw-address`; a DHCPv6
 * lease has one when Kea learned it), or else the MAC inside a link-layer DUID, as the agent
 * reads the lease file; null when Kea holds no lease for the address.
 */
export const keaLease = async (kea: KeaControl, ip: string): Promise<KeaHeld | null> => {
  const command = `lease${familyOf(ip)}-get`;
  const answer = await kea.command(command, { 'ip-address': ip });
  if (answer.result === 3) return null;
  if (answer.result !== 0) throw refused(command, answer, ip);
  const mac = answer.arguments?.['hw-address'];
  if (typeof mac === 'string' && mac !== '') return { mac: normalizeMac(mac) ?? mac.toLowerCase() };
  if (familyOf(ip) === 4) throw new KeaControlError(`Kea's ${command} for ${ip} named no hw-address`);
  const duid = answer.arguments?.duid;
  return { mac: typeof duid === 'string' ? (keaV6DuidMac(duid) ?? null) : null };
};

/** Deletes Kea's lease of an address (lease4-del, or lease6-del by `ip-address`): true when deleted, false when Kea held none. */
export const keaDeleteLease = async (kea: KeaControl, ip: string): Promise<boolean> => {
  const command = `lease${familyOf(ip)}-del`;
  const answer = await kea.command(command, { 'ip-address': ip });
  if (answer.result === 3) return false;
  if (answer.result !== 0) throw refused(command, answer, ip);
  return true;
};

/**
 * The leases of the Kea server whose memfile the agent follows, through that server's control
 * socket: lease4-get/lease4-del for kea-leases4.csv, lease6-get/lease6-del for kea-leases6.csv.
 * The family is read once from the file's header (a `duid` column: DHCPv6), not asked of Kea:
 * lease_cmds registers the commands of both families in either server (its list-commands names
 * them all), and a DHCPv4 server answers lease6-get with "not found". An address of the other
 * family is the other server's business (the agent beside it reclaims it), so it is skipped.
 */
export class KeaLeases {
  private family: 4 | 6 | null = null;

  constructor(
    readonly control: KeaControl,
    private readonly leaseFile: string,
  ) {}

  /** Whether the followed lease file, and so the server behind the socket, is of the address's family. */
  serves(ip: string): boolean {
    return familyOf(ip) === this.servedFamily();
  }

  held(ip: string): Promise<KeaHeld | null> {
    return keaLease(this.control, ip);
  }

  delete(ip: string): Promise<boolean> {
    return keaDeleteLease(this.control, ip);
  }

  private servedFamily(): 4 | 6 {
    if (this.family !== null) return this.family;
    const fd = tryOpen(this.leaseFile);
    if (fd === null) throw new Error(`${this.leaseFile} does not exist yet: which family to reclaim is read from its header`);
    try {
      const header = readFirstLine(fd);
      this.family = header === null ? null : keaLeaseFileFamily(header);
    } finally {
      closeSync(fd);
    }
    if (this.family === null) throw new Error(`${this.leaseFile} has no Kea lease-file header: --reclaim works beside Kea's memfile only`);
    return this.family;
  }
}
