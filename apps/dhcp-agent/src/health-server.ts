import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AgentHealth } from './dhcp-agent';

/** GET /healthz: 200 with the agent's state when it is working, 503 with the reason when not. Nothing else is served. */
export const startHealthServer = async (host: string, port: number, health: () => AgentHealth): Promise<{ server: Server; port: number }> => {
  const server = createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0];
    if (request.method !== 'GET' || path !== '/healthz') {
      response.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ message: 'only GET /healthz is served here' }));
      return;
    }
    const state = health();
    response.writeHead(state.status === 'ok' ? 200 : 503, { 'content-type': 'application/json' }).end(JSON.stringify(state));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return { server, port: (server.address() as AddressInfo).port };
};
