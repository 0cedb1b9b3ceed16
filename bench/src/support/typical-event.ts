import { mintToken } from '@ledger/domain';
import { timeOrderedUuid, type NewEvent } from '@ledger/event-store';

/**
 * The ledger's typical event: a NodeAcquired with its full envelope, as an acquire over
 * HTTP writes it, with ids made by the ledger's own generator. Raw SQLite figures use the
 * same serialized size and ids, so ratios compare like with like.
 */
export const newEventId = (): string => timeOrderedUuid();

export const typicalEvent = (): NewEvent => {
  const requestId = 'juju-fair-clouds-mobile-app-87-1';
  return {
    id: newEventId(),
    type: 'NodeAcquired',
    data: {
      nodeId: 'node-0042',
      token: mintToken('node-0042', 7, 'Yk9hQ2VxZjBqTnRYd1ZxMg'),
      epoch: 7,
      consumer: { controller: 'fair-clouds', model: 'mobile-app', machine: '87' },
      acquiredAt: new Date().toISOString(),
      reservationId: null,
      request: { requestId, fingerprint: 'q3Xh2b4mZ2a1XqkYgN5kq0m0s1u2t3w4y5z6A7B8C9D' },
    },
    metadata: { correlationId: newEventId(), causationId: null, actor: 'juju-fair-clouds', requestId, schemaVersion: 1 },
  };
};

const sample = typicalEvent();
export const TYPICAL_DATA_JSON = JSON.stringify(sample.data);
export const TYPICAL_METADATA_JSON = JSON.stringify(sample.metadata);
export const TYPICAL_EVENT_BYTES = TYPICAL_DATA_JSON.length + TYPICAL_METADATA_JSON.length;
