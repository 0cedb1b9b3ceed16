/**
 * The bench's baseline: a bare node:http server that does for the bench's command cycle
 * only what the store needs: it reads and JSON-parses each body, builds the same events
 * the ledger appends (same types, same fields, same envelope, ids from the same
 * generator) and appends them with the same calls (same streams, same expected
 * revisions, same order: an acquire appends AcquireRouted, then NodeAcquired) to the same
 * store (SqliteEventStore, synchronous=FULL, group commit, writer thread), answering with
 * the same JSON. No framework, no validation, no read models, no logging, no auth: what
 * is left is the floor any HTTP front of this store stands on.
 *
 * Usage: node bare-http-server.js <data-dir>; prints {"port":N} on stdout once listening.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createHash, randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { mintToken } from '@ledger/domain';
import { type ExpectedRevision, type NewEvent, SqliteEventStore, timeOrderedUuid } from '@ledger/event-store';

interface Allocation {
  nodeId: string;
  token: string;
  epoch: number;
}

const streamRevisions = new Map<string, number>();
const nodeEpochs = new Map<string, number>();
const allocations = new Map<string, Allocation>();

const readBody = (request: IncomingMessage): Promise<unknown> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      try {
        resolve(chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : {});
      } catch (error) {
        reject(error);
      }
    });
    request.on('error', reject);
  });

const answer = (response: ServerResponse, status: number, body: unknown): void => {
  const json = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(json) });
  response.end(json);
};

const envelope = (type: string, data: unknown, requestId: string | null): NewEvent => ({
  id: timeOrderedUuid(),
  type,
  data,
  metadata: { correlationId: timeOrderedUuid(), causationId: null, actor: 'operator', requestId, schemaVersion: 1 },
});

const main = async (): Promise<void> => {
  const store = await SqliteEventStore.open({ file: join(process.argv[2], 'events.sqlite'), synchronous: 'FULL' });

  /** Appends with the expected revision this process knows (each stream has one writer here). */
  const append = async (stream: string, event: NewEvent): Promise<number> => {
    const known = streamRevisions.get(stream);
    const expected: ExpectedRevision = known === undefined ? 'no_stream' : known;
    const result = await store.appendToStream(stream, [event], expected);
    streamRevisions.set(stream, result.nextExpectedRevision);
    return result.position;
  };

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const body = (await readBody(request)) as Record<string, any>;
    const url = request.url ?? '';
    const at = new Date().toISOString();
    if (url === '/v1/nodes') {
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
      return answer(response, 201, { nodeId: body.nodeId, status: 'ready', position });
    }
    if (url === '/v1/allocations') {
      const { requestId, nodeId, consumer } = body;
      const fingerprint = createHash('sha256').update(JSON.stringify(body)).digest('base64url');
      await append(`request-${requestId}`, envelope('AcquireRouted', { requestId, fingerprint, nodeId }, requestId));
      const epoch = (nodeEpochs.get(nodeId) ?? 0) + 1;
      nodeEpochs.set(nodeId, epoch);
      const token = mintToken(nodeId, epoch, randomBytes(16).toString('base64url'));
      const data = { nodeId, token, epoch, consumer, acquiredAt: at, reservationId: null, request: { requestId, fingerprint } };
      const position = await append(`node-${nodeId}`, envelope('NodeAcquired', data, requestId));
      allocations.set(token, { nodeId, token, epoch });
      return answer(response, 201, { nodeId, token, epoch, status: 'allocated', position });
    }
    const match = /^\/v1\/allocations\/([^/]+)\/(deploying|deployed|release)$/.exec(url);
    const allocation = match ? allocations.get(decodeURIComponent(match[1])) : undefined;
    if (!match || !allocation) return answer(response, 404, { code: 'not_found' });
    const { nodeId, token, epoch } = allocation;
    const [type, status, data] =
      match[2] === 'deploying'
        ? ['DeploymentStarted', 'deploying', { nodeId, token, epoch, at }]
        : match[2] === 'deployed'
          ? ['NodeDeployed', 'deployed', { nodeId, token, epoch, at }]
          : ['AllocationReleased', 'released', { nodeId, token, epoch, ending: 'released', at, request: null, pendingCleanup: [] }];
    const position = await append(`node-${nodeId}`, envelope(type as string, data, null));
    if (status === 'released') allocations.delete(token);
    return answer(response, 200, { nodeId, token, epoch, status, position });
  };

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => answer(response, 500, { error: String(error) }));
  });
  server.keepAliveTimeout = 60_000;
  server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    process.stdout.write(`${JSON.stringify({ port: typeof address === 'object' && address ? address.port : 0 })}\n`);
  });
  process.on('SIGTERM', () => server.close(() => void store.close().then(() => process.exit(0))));
};

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
