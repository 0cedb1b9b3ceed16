import { afterEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import createDebug from 'debug';
import { EventStoreDbEventStore } from './eventstoredb-event-store';

/**
 * Issue 12, point 6: no credential in any output. Runs the real client (6.2.1) through
 * connect() with its debug output switched on (as DEBUG=esdb:* would) and every console and
 * stderr write captured, for strings the client warns about, logs, or rejects. Passwords hold
 * `@` and `:` on purpose. connect() opens no connection, so no server is needed.
 */
const PASSWORD = 'p@ss:w0rd';
const captured: string[] = [];
const originals = { warn: console.warn, log: console.log, error: console.error, stderr: process.stderr.write };

function capture(): void {
  captured.length = 0;
  const keep = (...args: unknown[]) => void captured.push(args.map(String).join(' '));
  console.warn = keep;
  console.log = keep;
  console.error = keep;
  process.stderr.write = ((chunk: unknown) => (captured.push(String(chunk)), true)) as typeof process.stderr.write;
}

afterEach(() => {
  Object.assign(console, { warn: originals.warn, log: originals.log, error: originals.error });
  process.stderr.write = originals.stderr;
  createDebug.disable();
});

async function outputOf(connectionString: string): Promise<string> {
  createDebug.enable('esdb:*');
  capture();
  let message = '';
  try {
    const store = await EventStoreDbEventStore.connect(connectionString);
    await store.close();
  } catch (error) {
    message = (error as Error).message;
  }
  process.stderr.write = originals.stderr;
  return [...captured, message].join('\n');
}

describe('EventStoreDB connect(): no credential in any output', () => {
  for (const connectionString of [
    `esdb://admin:${PASSWORD}@localhost:2113?tls=false`,
    `esdb://admin:${PASSWORD}@localhost:2113?tlsVerifyCert=false`,
    `esdb://admin:${PASSWORD}@localhost:2113?nodePreference=nowhere`,
    `esdb://admin:${PASSWORD}@localhost:2113?tlsCAFile=/nonexistent/ca.crt`,
  ]) {
    it(`prints no password for ${connectionString.replace(PASSWORD, '***')}`, async () => {
      const output = await outputOf(connectionString);
      assert.doesNotMatch(output, /w0rd/, output);
    });
  }
});
