import type { EventStore } from '../event-store.port';
import type { CommitObserver, GroupCommitStats } from './group-commit';

/** A store that commits appends in groups (the embedded one): its counters, and a word after each commit. */
export interface GroupCommitting {
  stats(): GroupCommitStats;
  observeCommits(observer: CommitObserver): () => void;
}

/** The store as GroupCommitting, or undefined: other adapters (EventStoreDB) have no commits of their own to tell. */
export const groupCommitting = (store: EventStore): GroupCommitting | undefined => {
  const candidate = store as EventStore & Partial<GroupCommitting>;
  return typeof candidate.stats === 'function' && typeof candidate.observeCommits === 'function' ? (candidate as GroupCommitting) : undefined;
};
