import type { Server } from 'node:http';

/**
 * Node closes an idle keep-alive connection after 5 s by default. A client that pooled
 * the connection and was busy (a test blocked in a long synchronous CLI run, an importer
 * between batches on a loaded machine) never saw the close and sends its next request
 * down a socket the server has just shut: `fetch failed` / ECONNRESET. Keeping idle
 * connections well past any client's own idle timeout (undici's is 4 s) means the client
 * is the side that closes them. The headers timeout must exceed the keep-alive timeout,
 * or Node cuts a slow request's headers on a reused connection first.
 */
export const keepIdleConnectionsLongerThanClients = (server: Server, keepAliveTimeoutMs: number): void => {
  server.keepAliveTimeout = keepAliveTimeoutMs;
  server.headersTimeout = keepAliveTimeoutMs + 5_000;
};
