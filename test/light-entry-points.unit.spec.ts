/**
 * What the shared entry points load. Processes on the embedded store (the ledger and its
 * worker threads, the CLI, every spec) never load the EventStoreDB client, and specs without
 * a browser never load playwright-core: each cost every process that loaded it 80-400 ms of
 * CPU, and the suite starts such processes hundreds of times. The adapter and the browser
 * helpers are entries of their own (`@ledger/event-store/eventstoredb`, `@ledger/testing/browser`).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';

const DIST = resolve(__dirname, '..');

/** Whether requiring `entry` (a path under dist/) in a fresh process loads any file of `packageName`. */
const loads = (entry: string, packageName: string): boolean => {
  const script = [
    "require('reflect-metadata');",
    `require(${JSON.stringify(resolve(DIST, entry))});`,
    `process.stdout.write(String(Object.keys(require.cache).some((file) => file.includes(${JSON.stringify(`/node_modules/${packageName}/`)}))));`,
  ].join('\n');
  return execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' }) === 'true';
};

describe('what the shared entry points load', () => {
  it('the event store, the projections and the ledger app never load the EventStoreDB client; its own entry does', () => {
    for (const entry of ['libs/event-store/src', 'libs/projections/src', 'apps/ledger/src/app.module.js']) {
      assert.equal(loads(entry, '@eventstore/db-client'), false, entry);
    }
    assert.equal(loads('libs/event-store/src/eventstoredb', '@eventstore/db-client'), true);
  });

  it('the testing library never loads playwright-core; its browser entry does', () => {
    assert.equal(loads('libs/testing/src', 'playwright-core'), false);
    assert.equal(loads('libs/testing/src/browser', 'playwright-core'), true);
  });
});
