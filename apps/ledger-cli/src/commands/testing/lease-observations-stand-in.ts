/** A small stand-in for the ledger's lease-observations endpoint, for the import command's tests. */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The endpoint's contract, kept small: live owners' leases are valid, every other active lease orphaned, the rest released. */
/** `storageFault`: calls from `from` (1-based) up to `until` (or all after) are answered as the ledger answers on a full or read-only disk. */
type StorageFault = { from: number; until?: number; code: 'storage_full' | 'storage_read_only'; retryAfter: number };

export const startFakeLedger = async (live: Map<string, string>, options: { failOnCall?: number; status?: number; storageFault?: StorageFault } = {}) => {
  const calls: { authorization?: string; body: { source: string; leases: { ip: string; mac: string; state: string }[] } }[] = [];
  const readBody = async (request: IncomingMessage) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  };
  const server: Server = createServer(async (request, response) => {
    const body = await readBody(request);
    calls.push({ authorization: request.headers.authorization, body });
    response.setHeader('content-type', 'application/json');
    if (options.failOnCall === calls.length) {
      response.statusCode = options.status ?? 500;
      response.end(JSON.stringify({ statusCode: response.statusCode, code: 'internal_error', message: 'internal error; quote correlation id x' }));
      return;
    }
    const fault = options.storageFault;
    if (fault && calls.length >= fault.from && (fault.until === undefined || calls.length < fault.until)) {
      // As LedgerExceptionFilter answers a write the disk refused.
      response.statusCode = 503;
      response.setHeader('retry-after', String(fault.retryAfter));
      const condition = fault.code === 'storage_full' ? 'the disk holding the ledger is full' : 'the file system holding the ledger is read-only';
      response.end(
        JSON.stringify({
          code: fault.code,
          message: `${condition}: nothing was written; retry after ${fault.retryAfter} s`,
          statusCode: 503,
          correlationId: 'x',
        }),
      );
      return;
    }
    if (request.url !== '/v1/observations/leases' || body.leases.length > 5000) {
      response.statusCode = 400;
      response.end(JSON.stringify({ code: 'invalid_request', message: 'leases: at most 5000' }));
      return;
    }
    const results = body.leases.map((lease: { ip: string; mac: string; state: string }) => {
      if (lease.state !== 'active') return { ip: lease.ip, mac: lease.mac, verdict: 'released', reason: `the server says ${lease.state}` };
      if (live.get(lease.ip) === lease.mac) return { ip: lease.ip, mac: lease.mac, verdict: 'valid', reason: 'owner live', token: 't-1' };
      return { ip: lease.ip, mac: lease.mac, verdict: 'orphaned', reason: live.has(lease.ip) ? 'another MAC holds it' : 'no owner in the ledger' };
    });
    const summary = { valid: 0, orphaned: 0, released: 0, unknown: 0 } as Record<string, number>;
    for (const r of results) summary[r.verdict]++;
    response.end(JSON.stringify({ source: body.source, received: results.length, results, summary, position: calls.length * 10 }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, calls, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
};
