import createDebug from 'debug';

/**
 * Runs `createClient` with the `debug` package's output off. With DEBUG=esdb:* set, client
 * 6.2.1 logs "Using connection string: <the whole string>" (Client/index.js,
 * connectionString()), password included, while it creates the client. Output for every
 * namespace is restored right after, so DEBUG still works for everything else.
 */
export function withoutClientDebugOutput<T>(createClient: () => T): T {
  const namespaces = createDebug.disable();
  try {
    return createClient();
  } finally {
    if (namespaces) createDebug.enable(namespaces);
  }
}
