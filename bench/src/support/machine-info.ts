import { readFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { cpus, loadavg, release, totalmem, type } from 'node:os';
import { measureMemoryTouch, type MemoryTouch } from './memory-touch';

export interface MachineInfo {
  cpuModel: string;
  cores: number;
  memoryGb: number;
  os: string;
  node: string;
  sqlite: string;
  betterSqlite3: string;
  /** 1-minute load average when the bench started: a busy machine means noisy figures. */
  loadAverageAtStart: number;
  /** First touch of fresh memory against a second, when the bench started (see memory-touch.ts). */
  memoryTouch: MemoryTouch;
}

const betterSqlite3Version = (): string => {
  try {
    return (JSON.parse(readFileSync(require.resolve('better-sqlite3/package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
};

export const machineInfo = (): MachineInfo => {
  const db = new Database(':memory:');
  const sqlite = (db.prepare('SELECT sqlite_version() AS version').get() as { version: string }).version;
  db.close();
  const cores = cpus();
  return {
    cpuModel: cores[0]?.model.trim() ?? 'unknown',
    cores: cores.length,
    memoryGb: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    os: `${type()} ${release()}`,
    node: process.version,
    sqlite,
    betterSqlite3: betterSqlite3Version(),
    loadAverageAtStart: Math.round(loadavg()[0] * 100) / 100,
    memoryTouch: measureMemoryTouch(),
  };
};
