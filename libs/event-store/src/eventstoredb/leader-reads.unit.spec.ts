import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { EventStoreDbEventStore } from './eventstoredb-event-store';

/**
 * Issue 12, point 5: reads a decision rests on go to the leader. A follower may lag: a
 * stream read there makes the next append conflict again and again, and a stale head lets a
 * model release miss an allocation made just before it. The client (6.2.1) turns
 * `requiresLeader` into the gRPC header `requires-leader: true` (Client/index.js,
 * callArguments), and the server answers a follower's such read with "not leader" so the
 * client reconnects to the leader. The test runs the real client down to the gRPC call and
 * captures the metadata it would send, with the network replaced by an empty response.
 */
type Sent = { method: string; leader: boolean };
/** What the test reads of @grpc/grpc-js's Metadata. */
type Metadata = { get(key: string): unknown[] };

async function sentBy(run: (store: EventStoreDbEventStore) => Promise<unknown>): Promise<Sent[]> {
  const store = await EventStoreDbEventStore.connect('esdb://127.0.0.1:1?tls=false');
  const sent: Sent[] = [];
  const client = (store as unknown as { client: Record<string, unknown> }).client;
  // The client's own hook between a command and its gRPC stream: hand it a fake gRPC client.
  client.GRPCStreamCreator = (_grpcClient: unknown, debugName: string, creator: (grpc: unknown) => unknown) => async () =>
    creator({
      read: (_request: unknown, metadata: Metadata) => {
        sent.push({ method: debugName, leader: metadata.get('requires-leader').includes('true') });
        const empty = new PassThrough({ objectMode: true });
        empty.end();
        return empty;
      },
    });
  try {
    await run(store);
  } finally {
    await store.close();
  }
  return sent;
}

describe('EventStoreDB reads for decisions go to the leader', () => {
  it('a stream read (what a command folds) requires the leader', async () => {
    const sent = await sentBy((store) => store.readStream('node-n1'));
    assert.deepEqual(sent, [{ method: 'readStream', leader: true }]);
  });

  it('the head (what a model release and minPosition wait for) requires the leader', async () => {
    const sent = await sentBy((store) => store.headPosition());
    assert.ok(sent.length > 0 && sent.every((call) => call.leader), JSON.stringify(sent));
  });

  it('projection reads of $all may be served by any node', async () => {
    const sent = await sentBy((store) => store.readAll({ fromPosition: 0, maxCount: 10 }));
    assert.ok(sent.length > 0 && sent.every((call) => !call.leader), JSON.stringify(sent));
  });
});
