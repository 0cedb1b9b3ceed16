/**
 * The bench's baseline: a bare node:http server that does for the bench's command cycle
 * only what the store needs: it reads and JSON-parses each body and hands it to
 * baseline-commands.ts, which appends the same events as the ledger with the same calls to
 * the same store (SqliteEventStore, synchronous=FULL, group commit, writer thread); it
 * answers with the same JSON. No framework, no validation, no read models, no logging, no
 * auth: what is left is the floor any HTTP front of this store stands on.
 *
 * Usage: node bare-http-server.js <data-dir>; prints {"port":N} on stdout once listening.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { SqliteEventStore } from '@ledger/event-store';
import { baselineCommands, type AcquireBody, type BaselineAnswer, type EnlistBody, type TokenStep } from './baseline-commands';

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

const answer = (response: ServerResponse, { status, body }: BaselineAnswer): void => {
  const json = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(json) });
  response.end(json);
};

const TOKEN_COMMAND = /^\/v1\/allocations\/([^/]+)\/(deploying|deployed|release)$/;

const main = async (): Promise<void> => {
  const store = await SqliteEventStore.open({ file: join(process.argv[2], 'events.sqlite'), synchronous: 'FULL' });
  const commands = baselineCommands(store);

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const body = await readBody(request);
    const url = request.url ?? '';
    if (url === '/v1/nodes') return answer(response, await commands.enlist(body as EnlistBody));
    if (url === '/v1/allocations') return answer(response, await commands.acquire(body as AcquireBody));
    const match = TOKEN_COMMAND.exec(url);
    if (!match) return answer(response, { status: 404, body: { code: 'not_found' } });
    return answer(response, await commands.tokenCommand(decodeURIComponent(match[1]), match[2] as TokenStep));
  };

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => answer(response, { status: 500, body: { error: String(error) } }));
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
