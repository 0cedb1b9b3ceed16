import type { EventStore } from '../event-store.port';

/** One adapter under test, opened on storage the suite may share with other writers. */
export interface ContractSubject {
  store: EventStore;
  /** Opens a second, independent handle on the same storage (another process would do the same). */
  openAnother(): Promise<EventStore>;
  dispose(): Promise<void>;
}

export type ContractSubjectFactory = () => Promise<ContractSubject>;

/** How each group of cases reaches the subject opened in the suite's `before` hook. */
export type CurrentSubject = () => ContractSubject;
