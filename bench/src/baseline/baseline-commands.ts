import { createHash, randomBytes } from 'node:crypto';
import { mintToken } from '@ledger/domain';
import { type ExpectedRevision, type NewEvent, type SqliteEventStore, timeOrderedUuid } from '@ledger/event-store';

interface Allocation {
  nodeId: string;
  token: string;
  epoch: number;
}

/** What a baseline answers: the ledger's status and JSON for the same command. */
export interface BaselineAnswer {
  status: number;
  body: unknown;
}

export type TokenStep = 'deploying' | 'deployed' | 'release';

/**
 * What the bench's baseline does for its command cycle once a body is parsed: the events the
 * ledger appends (same types, same fields, same envelope, ids from the same generator),
 * appended with the same calls (same streams, same expected revisions, same order: an
 * acquire appends AcquireRouted, then NodeAcquired), answered with the same JSON. No
 * validation, no read models, no logging, no auth. Its HTTP front (bare-http-server.ts)
 * only routes to these.
 */
/** What the bench's command cycle sends: the baseline reads it unchecked, as it checks nothing. */
export interface EnlistBody {
  nodeId: string;
  hostname?: string;
  arch?: string;
  cpuCount?: number;
  memoryMb?: number;
  tags?: string[];
  zone?: string;
}

export interface AcquireBody {
  requestId: string;
  nodeId: string;
  consumer: unknown;
}

export const baselineCommands = (store: SqliteEventStore) => {
  const streamRevisions = new Map<string, number>();
  const nodeEpochs = new Map<string, number>();
  const allocations = new Map<string, Allocation>();

  const envelope = (type: string, data: unknown, requestId: string | null): NewEvent => ({
    id: timeOrderedUuid(),
    type,
    data,
    metadata: { correlationId: timeOrderedUuid(), causationId: null, actor: 'operator', requestId, schemaVersion: 1 },
  });

  /** Appends with the expected revision this process knows (each stream has one writer here). */
  const append = async (stream: string, event: NewEvent): Promise<number> => {
    const known = streamRevisions.get(stream);
    const expected: ExpectedRevision = known === undefined ? 'no_stream' : known;
    const result = await store.appendToStream(stream, [event], expected);
    streamRevisions.set(stream, result.nextExpectedRevision);
    return result.position;
  };

  return {
    async enlist(body: EnlistBody): Promise<BaselineAnswer> {
      const data = {
        nodeId: body.nodeId,
        hostname: body.hostname,
        arch: body.arch ?? 'amd64',
        cpuCount: body.cpuCount,
        memoryMb: body.memoryMb,
        tags: body.tags ?? [],
        zone: body.zone ?? 'default',
      };
      const position = await append(`node-${body.nodeId}`, envelope('NodeEnlisted', data, null));
      return { status: 201, body: { nodeId: body.nodeId, status: 'ready', position } };
    },

    async acquire(body: AcquireBody): Promise<BaselineAnswer> {
      const at = new Date().toISOString();
      const { requestId, nodeId, consumer } = body;
      const fingerprint = createHash('sha256').update(JSON.stringify(body)).digest('base64url');
      await append(`request-${requestId}`, envelope('AcquireRouted', { requestId, fingerprint, nodeId }, requestId));
      const epoch = (nodeEpochs.get(nodeId) ?? 0) + 1;
      nodeEpochs.set(nodeId, epoch);
      const token = mintToken(nodeId, epoch, randomBytes(16).toString('base64url'));
      const data = { nodeId, token, epoch, consumer, acquiredAt: at, reservationId: null, request: { requestId, fingerprint } };
      const position = await append(`node-${nodeId}`, envelope('NodeAcquired', data, requestId));
      allocations.set(token, { nodeId, token, epoch });
      return { status: 201, body: { nodeId, token, epoch, status: 'allocated', position } };
    },

    async tokenCommand(tokenParam: string, step: TokenStep): Promise<BaselineAnswer> {
      const allocation = allocations.get(tokenParam);
      if (!allocation) return { status: 404, body: { code: 'not_found' } };
      const at = new Date().toISOString();
      const { nodeId, token, epoch } = allocation;
      const [type, status, data] =
        step === 'deploying'
          ? ['DeploymentStarted', 'deploying', { nodeId, token, epoch, at }]
          : step === 'deployed'
            ? ['NodeDeployed', 'deployed', { nodeId, token, epoch, at }]
            : ['AllocationReleased', 'released', { nodeId, token, epoch, ending: 'released', at, request: null, pendingCleanup: [] }];
      const position = await append(`node-${nodeId}`, envelope(type, data, null));
      if (status === 'released') allocations.delete(token);
      return { status: 200, body: { nodeId, token, epoch, status, position } };
    },
  };
};

export type BaselineCommands = ReturnType<typeof baselineCommands>;
