import type { CheckpointStore } from './checkpoint-store';
import { byKey, changedEntitiesOf, type GoneEntities } from './snapshots/snapshot-rows';
import { metaOf, trackersReplaced, type TrackedCollection } from './snapshots/tracked-collections';

/** The checkpoints' next delta is taken against `position`: the collections' logs need nothing older for them. */
export const keepFrom = (collections: Map<string, TrackedCollection>, position: number): void => {
  for (const collection of collections.values()) collection.keepFrom('checkpoints', position);
};

/** A full save written a step at a time: its row set, the position it began at, and the keys it still has to write. */
export interface StagedSave {
  rowSet: string;
  since: number;
  /** The trackers when it began: one replaced since means beginning again. */
  collections: Map<string, TrackedCollection>;
  /** Per collection, the keys there when it began. */
  keys: [field: string, keys: string[]][];
  /** Where the next step starts: keys[field][1][index]. */
  field: number;
  index: number;
}

/** What a step's commit leaves: the save still under way, or COMMITTED (the checkpoint is the state at the step's position). */
export const COMMITTED = Symbol('committed');

/**
 * One step of a full save written a step at a time (`step` entities at most), in the open
 * transaction: its beginning (a new row set, the keys to write), then `step` entities at a
 * time as they are now, then its commit, which writes what changed and went since it began.
 * An entity written and changed after is written again at the commit (it was reported
 * changed since), so the set is the state at the commit's position. Answers what the
 * transaction's commit makes true.
 */
export const stagedSaveStep = (
  checkpoints: CheckpointStore,
  name: string,
  state: { position: number },
  collections: Map<string, TrackedCollection>,
  staged: StagedSave | null,
  step: number,
  now: () => Date,
): (() => StagedSave | typeof COMMITTED) => {
  if (staged === null || trackersReplaced(staged.collections, collections)) {
    const rowSet = checkpoints.beginStaged(name);
    const since = state.position;
    // The removals from now on are the commit's: what went before is not in the new set.
    for (const collection of collections.values()) collection.takeRemoved('checkpoints');
    // Its commit asks what changed since this position.
    keepFrom(collections, since);
    const keys = [...collections].map(([field, collection]): [string, string[]] => [field, collection.keys()]);
    return () => ({ rowSet, since, collections: new Map(collections), keys, field: 0, index: 0 });
  }
  if (staged.field < staged.keys.length) {
    let { field, index } = staged;
    for (let budget = step; budget > 0 && field < staged.keys.length;) {
      const [collectionName, keys] = staged.keys[field];
      const collection = collections.get(collectionName)!;
      const end = Math.min(keys.length, index + budget);
      const rows: [string, string][] = [];
      for (let i = index; i < end; i++) if (collection.has(keys[i])) rows.push([keys[i], JSON.stringify(collection.target[keys[i]])]);
      checkpoints.writeStaged(staged.rowSet, collectionName, rows.sort(byKey));
      budget -= end - index;
      [field, index] = end === keys.length ? [field + 1, 0] : [field, end];
    }
    return () => {
      staged.field = field;
      staged.index = index;
      return staged;
    };
  }
  const gone: GoneEntities = new Map();
  for (const [field, collection] of collections) gone.set(field, collection.takeRemoved('checkpoints'));
  const commit = { position: state.position, meta: metaOf(state, collections), changed: changedEntitiesOf(collections, staged.since), gone };
  checkpoints.commitStaged(name, staged.rowSet, commit, now());
  return () => COMMITTED;
};
