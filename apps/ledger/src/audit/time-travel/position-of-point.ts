import { positionAtTime, type PointInLog } from '@ledger/projections';
import type { EventStore } from '@ledger/event-store';
import { InvalidInput } from '../../application/invalid-input';

/** The position a point of the log names: its own, or the last one recorded by its time; never beyond the head. */
export const positionOfPoint = async (store: EventStore, point: PointInLog): Promise<number> => {
  const head = await store.headPosition();
  if ('position' in point && point.position > head) throw new InvalidInput(`at: position ${point.position} is beyond the log's head (${head})`);
  return 'position' in point ? point.position : positionAtTime(store, point.time, head);
};
