/**
 * What the ledger decides on when it picks a machine (a constraint-based acquire, and the
 * MAAS facade's allocate with `zone` and `pool`), and the owner data an allocation's
 * holder set, as the read model folds them from the log.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { RecordedEvent } from '@ledger/event-store';
import { Streams, type NodeEvent } from '@ledger/domain';
import { UNTRACKED } from '../runtime/collection-changes';
import { presentAllocation, presentNode } from '../presentation';
import { applyEvent } from './apply-event';
import { emptyLedgerView, type LedgerViewState } from './views';
import { acquirableNodes, matchesConstraints, type NodeConstraints } from './node-queries';
// Test-only reach into the domain's fixtures, so the read side is checked against the write side.
import { acquired, at, enlisted, released, tokenOf } from '../../../domain/src/lease/testing/lease-fixtures';

const record = (view: LedgerViewState, event: NodeEvent): void => {
  const position = view.position + 1;
  const recorded: RecordedEvent = {
    id: `e-${position}`,
    type: event.type,
    data: event.data,
    stream: Streams.node(event.data.nodeId),
    revision: position - 1,
    position,
    recordedAt: at(0),
    metadata: { correlationId: 'c', causationId: null, actor: 'test', requestId: null, schemaVersion: 1 },
  };
  applyEvent(view, recorded, UNTRACKED);
};

const enlistedIn = (nodeId: string, zone: string, pool?: string): NodeEvent => {
  const event = enlisted(nodeId) as Extract<NodeEvent, { type: 'NodeEnlisted' }>;
  return { type: 'NodeEnlisted', data: { ...event.data, zone, ...(pool !== undefined ? { pool } : {}) } };
};

const NOW = new Date(at(100));

describe('picking a machine by pool and zone', () => {
  const view = emptyLedgerView();
  record(view, enlistedIn('n-gold-a', 'az1', 'gold'));
  record(view, enlistedIn('n-gold-b', 'az2', 'gold'));
  record(view, enlistedIn('n-bronze', 'az1', 'bronze'));
  record(view, enlistedIn('n-none', 'az1'));
  const picked = (constraints: NodeConstraints) => acquirableNodes(view, constraints, NOW).map((node) => node.nodeId);

  it('a pool constraint picks only machines of that pool; a machine enlisted without one is in none', () => {
    assert.deepEqual(picked({ pool: 'gold' }), ['n-gold-a', 'n-gold-b']);
    assert.deepEqual(picked({ pool: 'gold', zone: 'az1' }), ['n-gold-a']);
    assert.deepEqual(picked({ pool: 'default' }), []);
    assert.deepEqual(picked({ zone: 'az1' }), ['n-bronze', 'n-gold-a', 'n-none']);
    assert.deepEqual(picked({}), ['n-bronze', 'n-gold-a', 'n-gold-b', 'n-none']);
  });

  it('every picked machine matches each constraint it was asked for, and every matching ready one is picked', () => {
    const constraint = fc.record({ zone: fc.constantFrom('az1', 'az2', 'az3'), pool: fc.constantFrom('gold', 'bronze', 'default') }, { requiredKeys: [] });
    fc.assert(
      fc.property(constraint, (constraints) => {
        for (const node of Object.values(view.nodes)) {
          const expected =
            (constraints.zone === undefined || node.zone === constraints.zone) && (constraints.pool === undefined || node.pool === constraints.pool);
          assert.equal(matchesConstraints(node, constraints), expected);
          assert.equal(picked(constraints).includes(node.nodeId), expected);
        }
      }),
    );
  });

  it('the node view shows the pool, or null when the enlistment named none', () => {
    assert.equal(presentNode(view, view.nodes['n-gold-a'], NOW).pool, 'gold');
    assert.equal(presentNode(view, view.nodes['n-none'], NOW).pool, null);
  });
});

describe("an allocation's owner data in the read model", () => {
  const set = (epoch: number, values: Record<string, string>, removed: string[] = []): NodeEvent => ({
    type: 'AllocationOwnerDataSet',
    data: { nodeId: 'node-7', token: tokenOf(epoch), epoch, set: values, removed, at: at(5) },
  });

  it('is folded change by change, kept as it last was after the allocation ends, and empty for a new allocation', () => {
    const view = emptyLedgerView();
    for (const event of [enlisted(), acquired(1)]) record(view, event);
    assert.deepEqual(presentAllocation(view, view.allocations[tokenOf(1)]).ownerData, {});
    record(view, set(1, { 'juju-model-uuid': 'm1', 'juju-machine-id': '87' }));
    record(view, set(1, { 'juju-machine-id': '88' }, ['juju-model-uuid']));
    assert.deepEqual(presentAllocation(view, view.allocations[tokenOf(1)]).ownerData, { 'juju-machine-id': '88' });
    record(view, released(1));
    record(view, acquired(2));
    assert.deepEqual(presentAllocation(view, view.allocations[tokenOf(1)]).ownerData, { 'juju-machine-id': '88' });
    assert.deepEqual(presentAllocation(view, view.allocations[tokenOf(2)]).ownerData, {});
  });
});
