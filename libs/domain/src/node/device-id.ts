/**
 * A device's id: `<base64url(nodeId)>.<epoch>.d<n>`, the n-th device registered under
 * the node's `epoch`-th allocation. Documented as opaque to clients; the ledger relies
 * on what its shape gives, as with provisioning tokens:
 * - unique by construction: (nodeId, epoch, n) never repeats, because a node's epoch
 *   only grows and n counts up within one allocation, on the node's own stream;
 * - routing without a read model: a device command finds its node stream from the id.
 * It can never be mistaken for a token: a token's last part is 16 or more characters.
 */
export type DeviceId = string;

export interface ParsedDeviceId {
  nodeId: string;
  epoch: number;
  sequence: number;
}

const wellFormedNodeId = (nodeId: string): boolean => nodeId.length > 0 && Buffer.from(nodeId, 'utf8').toString('utf8') === nodeId;

export const mintDeviceId = (nodeId: string, epoch: number, sequence: number): DeviceId => {
  // UTF-8 turns a lone surrogate into U+FFFD, so such an id would share its prefix with another node's.
  if (!wellFormedNodeId(nodeId)) throw new RangeError('node id must be non-empty, well-formed text');
  if (!Number.isSafeInteger(epoch) || epoch < 1) throw new RangeError(`epoch must be a positive integer, got ${epoch}`);
  if (!Number.isSafeInteger(sequence) || sequence < 1) throw new RangeError(`device sequence must be a positive integer, got ${sequence}`);
  return `${Buffer.from(nodeId, 'utf8').toString('base64url')}.${epoch}.d${sequence}`;
};

/** The node, epoch and sequence number a well-formed device id names, or null for anything else. */
export const parseDeviceId = (deviceId: string): ParsedDeviceId | null => {
  if (typeof deviceId !== 'string' || deviceId.length > 512) return null;
  const parts = deviceId.split('.');
  if (parts.length !== 3) return null;
  const [encodedNode, epochText, sequenceText] = parts;
  if (!/^[A-Za-z0-9_-]+$/.test(encodedNode) || !/^[1-9][0-9]{0,15}$/.test(epochText) || !/^d[1-9][0-9]{0,8}$/.test(sequenceText)) return null;
  const epoch = Number(epochText);
  if (!Number.isSafeInteger(epoch)) return null;
  const nodeId = Buffer.from(encodedNode, 'base64url').toString('utf8');
  if (!wellFormedNodeId(nodeId) || Buffer.from(nodeId, 'utf8').toString('base64url') !== encodedNode) return null;
  return { nodeId, epoch, sequence: Number(sequenceText.slice(1)) };
};
