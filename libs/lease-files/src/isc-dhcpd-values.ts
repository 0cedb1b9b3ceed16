import type { IscToken } from './isc-dhcpd-lexer';
import type { LeaseState } from './lease-record';

/**
 * dhcpd's binding states (server/db.c `binding_state_names`) as the ledger's record states.
 * `reset` is a failover state for a lease an operator freed; `reserved` and `bootp` are
 * leases in use (newer dhcpd reads them as active with a flag).
 */
const BINDING_STATES: Record<string, LeaseState> = {
  active: 'active',
  free: 'free',
  expired: 'expired',
  released: 'released',
  abandoned: 'abandoned',
  backup: 'backup',
  reset: 'free',
  reserved: 'active',
  bootp: 'active',
};

export const bindingState = (name: string): LeaseState | undefined => BINDING_STATES[name];

export type IscDate = { ok: true; value: string | null } | { ok: false; reason: string };

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * A dhcpd date (common/parse.c `parse_date_core`): `never`; `epoch <seconds>` (db-time-format
 * local, with a human comment after the `;`); or `<weekday> YYYY/MM/DD HH:MM:SS` in UTC with
 * an optional timezone offset in seconds. The weekday is not checked against the date (dhcpd
 * ignores it too). `never` is null: a lease that does not end.
 */
export const parseIscDate = (words: IscToken[]): IscDate => {
  const text = words.map((w) => w.text);
  if (text.length === 1 && text[0] === 'never') return { ok: true, value: null };
  if (text[0] === 'epoch') {
    if (text.length !== 2 || !/^\d{1,12}$/.test(text[1])) return { ok: false, reason: `'${text.join(' ')}' is not 'epoch <seconds>'` };
    return { ok: true, value: new Date(Number(text[1]) * 1000).toISOString() };
  }
  if ((text.length !== 3 && text.length !== 4) || !/^[0-6]$/.test(text[0])) {
    return { ok: false, reason: `'${text.join(' ')}' is not '<weekday 0-6> YYYY/MM/DD HH:MM:SS', 'epoch <seconds>' or 'never'` };
  }
  const date = /^(\d{4})\/(\d{1,2})\/(\d{1,2})$/.exec(text[1]);
  const time = /^(\d{1,2}):(\d{1,2}):(\d{1,2})$/.exec(text[2]);
  const offset = text[3] === undefined ? 0 : /^-?\d{1,6}$/.test(text[3]) ? Number(text[3]) : NaN;
  if (!date || !time || Number.isNaN(offset)) return { ok: false, reason: `'${text.join(' ')}' is not '<weekday> YYYY/MM/DD HH:MM:SS'` };
  const [year, month, day] = date.slice(1).map(Number);
  const [hour, minute, second] = time.slice(1).map(Number);
  const millis = Date.UTC(year, month - 1, day, hour, minute, second);
  const back = new Date(millis);
  // Date.UTC rolls 2024/02/30 over into March; a date that does not survive the round trip does not exist.
  if (hour > 23 || minute > 59 || second > 60 || back.getUTCMonth() !== month - 1 || back.getUTCDate() !== day) {
    return { ok: false, reason: `${year}/${pad(month)}/${pad(day)} ${pad(hour)}:${pad(minute)}:${pad(second)} is not a valid date` };
  }
  return { ok: true, value: new Date(millis + offset * 1000).toISOString() };
};
