import Database from 'better-sqlite3';

/** The errors a full or failing disk gives: SQLite's own error class and codes. */
export type InjectedFault = 'SQLITE_FULL' | 'SQLITE_IOERR_WRITE';

export interface FaultPlan {
  /** Whether faults are being injected now. */
  on: boolean;
  /** Chance that one write (a statement run, an exec, a commit) fails while `on`. */
  probability: number;
  /** A number in [0, 1), seeded by the test. */
  random(): number;
  /** How many faults were injected so far. */
  injected: number;
  /** Fail only at COMMIT (after every statement of the transaction ran), never at a statement. */
  onlyAtCommit?: boolean;
}

const MESSAGES: Record<InjectedFault, string> = {
  SQLITE_FULL: 'database or disk is full',
  SQLITE_IOERR_WRITE: 'disk I/O error',
};

/** A small seeded generator (mulberry32), so a failing run replays with fast-check's seed. */
export const seededRandom = (seed: number): (() => number) => {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
};

export const faultPlan = (seed: number, probability: number): FaultPlan => ({ on: false, probability, random: seededRandom(seed), injected: 0 });

const maybeFail = (plan: FaultPlan, atCommit = false): void => {
  if (plan.onlyAtCommit && !atCommit) return;
  if (!plan.on || plan.random() >= plan.probability) return;
  plan.injected += 1;
  const code: InjectedFault = plan.random() < 0.5 ? 'SQLITE_FULL' : 'SQLITE_IOERR_WRITE';
  throw new Database.SqliteError(MESSAGES[code], code);
};

/**
 * A read-model database whose writes fail at random points while `plan.on`, as on a
 * disk that fills up: a statement's run() or an exec() fails before it writes, and a
 * transaction fails at COMMIT after all its statements ran (then SQLite rolls it back,
 * which is what better-sqlite3 does when the function throws). Reads never fail.
 * Everything else is the real better-sqlite3 connection underneath.
 */
export const faultyDatabase = (db: Database.Database, plan: FaultPlan): Database.Database => {
  const statement = (real: Database.Statement): Database.Statement =>
    new Proxy(real, {
      get(target, property) {
        const value = Reflect.get(target, property, target) as unknown;
        if (property === 'run') {
          return (...args: unknown[]) => {
            maybeFail(plan);
            return target.run(...args);
          };
        }
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
  const proxy: Database.Database = new Proxy(db, {
    get(target, property) {
      const value = Reflect.get(target, property, target) as unknown;
      if (property === 'prepare') return (source: string) => statement(target.prepare(source));
      if (property === 'exec') {
        return (source: string) => {
          // Reads and transaction control pass; anything that writes may fail.
          if (!/^\s*(BEGIN|COMMIT|ROLLBACK|SELECT)/i.test(source)) maybeFail(plan);
          target.exec(source);
          return proxy;
        };
      }
      if (property === 'transaction') {
        return <F extends (...args: never[]) => unknown>(fn: F) =>
          target.transaction(function (this: unknown, ...args: Parameters<F>) {
            const result = fn.apply(this, args);
            // After every statement ran: the COMMIT is where a full disk usually shows.
            maybeFail(plan, true);
            return result;
          });
      }
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  return proxy;
};
