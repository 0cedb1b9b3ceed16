import type Database from 'better-sqlite3';

/**
 * How long a write on the event loop may give way to another holder of the write lock (a
 * timed checkpoint, a snapshot): past this it waits for the lock, so a writer that keeps it
 * for long stretches (the audit index's thread far behind, a CLI rebuild building its
 * indexes) cannot keep the checkpoints, and with them how much a restart folds again, or
 * time travel's snapshots, from moving for good.
 */
export const MAX_GIVE_WAY_MS = 30_000;

/** One write on the event loop that gives way to another holder of the write lock: since when, and whether it must now wait. */
export class GiveWay {
  private since: number | null = null;

  /** Whether the last try gave way, so the write is still owed. */
  get owed(): boolean {
    return this.since !== null;
  }

  /** Whether a try at `now` (ms) must wait for the lock: it has given way for MAX_GIVE_WAY_MS already. */
  mustWait(now: number): boolean {
    return this.since !== null && now - this.since >= MAX_GIVE_WAY_MS;
  }

  /** A try at `now` wrote, or gave way. */
  tried(written: boolean, now: number): void {
    if (written) this.since = null;
    else this.since ??= now;
  }
}

/** writeUnlessLocked's answer when another connection held the file's write lock: nothing was written. */
export const LOCKED = Symbol('the write lock was taken');

/**
 * Runs `write` in an IMMEDIATE transaction on `db` and answers what it returns, or LOCKED
 * if another connection holds the file's write lock: with `wait: false` at once, else once
 * the connection's busy timeout has run out. Waiting means SQLite's busy handler sleeping
 * on the calling thread: on the main thread that stops the event loop, and every request
 * with it, for as long as the other writer keeps the lock (the audit index's thread, a page
 * at a time; a CLI rebuild's index build or promotion, seconds).
 * `write` runs only once the lock is held, so a caller told LOCKED has decided nothing
 * yet (no removals taken, no position moved) and simply tries again later.
 * Inside a transaction already open on `db`, it is a savepoint of that one.
 */
export const writeUnlessLocked = <T>(db: Database.Database, write: () => T, options: { wait: boolean }): T | typeof LOCKED => {
  const patience = options.wait ? null : (db.pragma('busy_timeout', { simple: true }) as number);
  if (patience !== null) db.pragma('busy_timeout = 0');
  let began = false;
  try {
    return db
      .transaction(() => {
        began = true;
        return write();
      })
      .immediate();
  } catch (error) {
    // BEGIN found the lock taken: nothing was written, nothing is lost.
    if (!began && (error as { code?: unknown }).code === 'SQLITE_BUSY') return LOCKED;
    throw error;
  } finally {
    if (patience !== null) db.pragma(`busy_timeout = ${patience}`);
  }
};
