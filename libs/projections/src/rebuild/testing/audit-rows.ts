import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { AuditIndexProjector } from '../../audit/audit-index-projector';
import { AUDIT_INDEX, auditTableNames } from '../../audit/audit-index-tables';
import { openReadModelDatabase } from '../../runtime/read-model-database';
import { ReadModelTables } from '../../runtime/read-model-tables';
import type { LedgerFiles } from './ledger-files';

/** Every row of the current audit generation, in position order. */
export const auditRows = (db: Database.Database): Record<string, unknown[][]> => {
  const names = auditTableNames(new ReadModelTables(db).current(AUDIT_INDEX)!.generation);
  const all = (table: string, order: string) => db.prepare(`SELECT * FROM "${table}" ORDER BY ${order}`).raw(true).all() as unknown[][];
  return { events: all(names.events, 'position') };
};

/** The reference: the rows the live projector writes page by page on this thread, no bulk load, no other thread. */
export const liveProjectorRows = async (files: LedgerFiles, head: number, pageSize: number) => {
  const live = openReadModelDatabase(join(files.dir, 'live.sqlite'));
  const projector = AuditIndexProjector.live(live);
  for (let after = 0; after < head; after = projector.position) projector.applyPage(await files.store.readAll({ fromPosition: after, maxCount: pageSize }));
  const expected = auditRows(live);
  live.close();
  return expected;
};
