import type { RecordedEvent } from '@ledger/event-store';
import { AUDIT_DATA_PATHS, auditFieldsOf } from '../audit/audit-fields';

/**
 * Events whose fields one string holds: about 40 KB of JSON on the bench's log (80
 * characters an event), so each string stays in V8's young generation on both threads, out
 * of its large-object space (see SNAPSHOT_CHUNK_CHARS), even with fields a few times longer.
 */
export const FIELDS_EVENTS_PER_STRING = 500;

/** A page's AUDIT_DATA_PATHS strings (auditFieldsOf), as the JSON of FIELDS_EVENTS_PER_STRING events a string. */
export const printAuditFields = (page: readonly RecordedEvent[]): string[] => {
  const parts: string[] = [];
  for (let from = 0; from < page.length; from += FIELDS_EVENTS_PER_STRING)
    parts.push(JSON.stringify(auditFieldsOf(page.slice(from, from + FIELDS_EVENTS_PER_STRING))));
  return parts;
};

/** The fields printAuditFields printed, one event after another, AUDIT_DATA_PATHS.length each. */
export const parseAuditFields = (parts: readonly string[]): (string | null)[] => {
  const fields: (string | null)[] = [];
  for (const part of parts) for (const field of JSON.parse(part) as (string | null)[]) fields.push(field);
  if (fields.length % AUDIT_DATA_PATHS.length !== 0) throw new Error(`${fields.length} fields do not make whole events of ${AUDIT_DATA_PATHS.length}`);
  return fields;
};
