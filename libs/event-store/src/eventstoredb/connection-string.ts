/**
 * Checks LEDGER_ESDB_URL before the client sees it. The client's own parser accepts
 * unknown options with a console warning that prints the whole string, password included,
 * and accepts `throwOnAppendFailure=false`, which would turn a revision conflict into a
 * silent "success: false". Both are refused here, with messages that never show a password.
 */
export class InvalidConnectionStringError extends Error {
  override readonly name = 'InvalidConnectionStringError';
}

const SCHEMES = ['esdb://', 'esdb+discover://'];

/** Settings the v6 client understands, by their case- and separator-insensitive name. */
const KNOWN_SETTINGS = new Map(
  [
    'tls',
    'tlsCAFile',
    'userCertFile',
    'userKeyFile',
    'nodePreference',
    'maxDiscoverAttempts',
    'discoveryInterval',
    'gossipTimeout',
    'defaultDeadline',
    'keepAliveInterval',
    'keepAliveTimeout',
    'connectionName',
  ].map((name) => [flat(name), name]),
);

/** Settings the adapter depends on and therefore will not let a connection string change. */
const FORBIDDEN_SETTINGS = new Map([
  [flat('throwOnAppendFailure'), 'the adapter relies on the client raising revision conflicts as errors'],
  // Client 6.2.1 ignores it and prints the whole connection string, password included, to
  // the console (parseConnectionString.js, verifyKeyValuePair).
  [flat('tlsVerifyCert'), 'this client ignores it and would print the connection string; trust the server CA with tlsCAFile'],
]);

/** Returns the trimmed connection string, or throws InvalidConnectionStringError saying what is wrong. */
export function validateConnectionString(raw: unknown): string {
  if (typeof raw !== 'string' || raw.trim().length === 0) {
    throw new InvalidConnectionStringError(
      'EventStoreDB connection string is empty: set LEDGER_ESDB_URL, e.g. esdb://localhost:2113?tls=false',
    );
  }
  const connectionString = raw.trim();
  const shown = redactConnectionString(connectionString);
  const scheme = SCHEMES.find((candidate) => connectionString.startsWith(candidate));
  if (scheme === undefined) {
    throw new InvalidConnectionStringError(
      `EventStoreDB connection string must start with ${SCHEMES.join(' or ')}: ${shown}`,
    );
  }
  const queryAt = connectionString.indexOf('?');
  const authority = connectionString.slice(scheme.length, queryAt === -1 ? undefined : queryAt);
  const hosts = authority.slice(authority.lastIndexOf('@') + 1).replace(/\/+$/, '');
  if (hosts.length === 0 || hosts.split(',').some((host) => host.trim().length === 0)) {
    throw new InvalidConnectionStringError(`EventStoreDB connection string names no host: ${shown}`);
  }
  if (queryAt !== -1) checkSettings(connectionString.slice(queryAt + 1), shown);
  return connectionString;
}

/**
 * The connection string with any password replaced by `***`, safe for logs and error messages.
 * The user ends at the first `:`, the password at the LAST `@`: a password may itself hold
 * `@` or `:` (written raw or percent-encoded), and redacting too much is always safe.
 */
export function redactConnectionString(connectionString: string): string {
  const password = passwordOf(connectionString);
  if (password === null) return connectionString;
  const start = connectionString.indexOf(':', connectionString.indexOf('://') + 3) + 1;
  return `${connectionString.slice(0, start)}***${connectionString.slice(start + password.length)}`;
}

/** The password as written in the string (between `user:` and the last `@`), or null if there is none. */
export function passwordOf(connectionString: string): string | null {
  const scheme = /^[a-z+]+:\/\//i.exec(connectionString);
  if (scheme === null) return null;
  const rest = connectionString.slice(scheme[0].length);
  const at = rest.lastIndexOf('@');
  if (at === -1) return null;
  const userInfo = rest.slice(0, at);
  const colon = userInfo.indexOf(':');
  return colon === -1 ? null : userInfo.slice(colon + 1);
}

/** `text` with every occurrence of the string's password (raw and percent-decoded) replaced by `***`. */
export function scrubPassword(text: string, connectionString: string): string {
  const password = passwordOf(connectionString);
  if (password === null || password.length === 0) return text;
  let decoded = password;
  try {
    decoded = decodeURIComponent(password);
  } catch {
    // not valid percent-encoding: only the raw form can appear
  }
  return [password, decoded].reduce((scrubbed, secret) => scrubbed.split(secret).join('***'), text);
}

function checkSettings(query: string, shown: string): void {
  for (const pair of query.split('&')) {
    const equals = pair.indexOf('=');
    const key = equals === -1 ? pair : pair.slice(0, equals);
    const value = equals === -1 ? '' : pair.slice(equals + 1);
    const forbidden = FORBIDDEN_SETTINGS.get(flat(key));
    if (forbidden !== undefined) {
      throw new InvalidConnectionStringError(`EventStoreDB setting "${key}" cannot be set (${forbidden}): ${shown}`);
    }
    if (!KNOWN_SETTINGS.has(flat(key))) {
      throw new InvalidConnectionStringError(
        `EventStoreDB setting "${key}" is unknown; known: ${[...KNOWN_SETTINGS.values()].join(', ')}: ${shown}`,
      );
    }
    if (value.length === 0) {
      throw new InvalidConnectionStringError(`EventStoreDB setting "${key}" has no value: ${shown}`);
    }
  }
}

function flat(name: string): string {
  return name.trim().toLowerCase().replace(/[_-]/g, '');
}
