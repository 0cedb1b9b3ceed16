import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { EVENT_TYPE } from '@eventstore/db-client';
import { isSystemEvent, systemEventsFilter } from './system-events';

describe('EventStoreDB system events', () => {
  it('are $-typed or in $-streams; ledger events are neither', () => {
    assert.equal(isSystemEvent({ streamId: '$stats-127.0.0.1:2113', type: '$statsCollected' }), true);
    assert.equal(isSystemEvent({ streamId: '$$node-n1', type: '$metadata' }), true);
    assert.equal(isSystemEvent({ streamId: '$ce-node', type: '$>' }), true);
    assert.equal(isSystemEvent({ streamId: '$scavenges', type: 'ScavengeStarted' }), true);
    assert.equal(isSystemEvent({ streamId: 'node-n1', type: 'NodeAcquired' }), false);
    assert.equal(isSystemEvent({ streamId: 'ip-10.0.0.7', type: 'LeaseGranted' }), false);
  });

  it('the server-side filter excludes $-typed events', () => {
    const filter = systemEventsFilter();
    assert.equal(filter.filterOn, EVENT_TYPE);
    assert.ok('regex' in filter);
    const regex = new RegExp(filter.regex);
    assert.equal(regex.test('$statsCollected'), false);
    assert.equal(regex.test('NodeAcquired'), true);
  });
});
