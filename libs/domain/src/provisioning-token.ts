/**
 * A provisioning token is the allocation's id and the consumer's instance id.
 *
 * Its shape, `<base64url(nodeId)>.<epoch>.<entropy>`, is documented as opaque to
 * consumers, but the ledger relies on two things it gives:
 * - uniqueness by construction, not by luck: a node's epoch only grows, so
 *   (nodeId, epoch) never repeats across nodes or time, whatever the entropy;
 * - routing without a read model: a fenced command finds its node stream from the
 *   token itself, so fencing never depends on an eventually consistent projection.
 * The entropy (random, injected) makes tokens unguessable.
 */
export type ProvisioningToken = string;

const ENTROPY = /^[A-Za-z0-9_-]{16,64}$/;

export const mintToken = (nodeId: string, epoch: number, entropy: string): ProvisioningToken => {
  // UTF-8 turns a lone surrogate into U+FFFD, so such an id would share its tokens' prefix with another node's.
  if (nodeId.length === 0 || Buffer.from(nodeId, 'utf8').toString('utf8') !== nodeId) {
    throw new RangeError('node id must be non-empty, well-formed text');
  }
  if (!Number.isSafeInteger(epoch) || epoch < 1) throw new RangeError(`epoch must be a positive integer, got ${epoch}`);
  if (!ENTROPY.test(entropy)) throw new RangeError('token entropy must be 16-64 URL-safe characters');
  return `${Buffer.from(nodeId, 'utf8').toString('base64url')}.${epoch}.${entropy}`;
};

export interface ParsedToken {
  nodeId: string;
  epoch: number;
}

/** The node and epoch a well-formed token names, or null for anything else. */
export const parseToken = (token: string): ParsedToken | null => {
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  const [encodedNode, epochText, entropy] = parts;
  if (!/^[A-Za-z0-9_-]+$/.test(encodedNode) || !/^[1-9][0-9]{0,15}$/.test(epochText) || !ENTROPY.test(entropy)) {
    return null;
  }
  // Every epoch mintToken accepts (any positive safe integer) must parse back.
  const epoch = Number(epochText);
  if (!Number.isSafeInteger(epoch)) return null;
  const nodeId = Buffer.from(encodedNode, 'base64url').toString('utf8');
  if (nodeId.length === 0 || Buffer.from(nodeId, 'utf8').toString('base64url') !== encodedNode) return null;
  return { nodeId, epoch };
};
