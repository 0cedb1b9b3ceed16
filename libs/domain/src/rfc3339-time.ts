/**
 * A date and time as RFC 3339 (section 5.6) writes it, which is what JSON Schema's and
 * OpenAPI's `date-time` format means: `2025-01-01T12:00:00Z`, seconds required, an
 * optional fraction of any length, and a zone (`Z` or `+hh:mm`). `T` and `Z` may be lower
 * case (RFC 3339 says so). The date must exist (no 30 February). A leap second (`:60`) is
 * read as the last millisecond of its minute, since JavaScript's clock has none.
 */
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/;

/** The pattern as the API document states it (with `format: date-time`). */
export const RFC3339_TIME_PATTERN = RFC3339.source;

const daysIn = (year: number, month: number): number =>
  month === 2 ? (year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;

/** The moment `text` names, or null when it is not an RFC 3339 date-time. */
export const parseRfc3339Time = (text: unknown): Date | null => {
  if (typeof text !== 'string' || text.length > 64) return null;
  const match = RFC3339.exec(text);
  if (!match) return null;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number);
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month) || hour > 23 || minute > 59 || second > 60) return null;
  const offsetHours = match[9] === undefined ? 0 : Number(match[9]);
  const offsetMinutes = match[10] === undefined ? 0 : Number(match[10]);
  if (offsetHours > 23 || offsetMinutes > 59) return null;
  const millis = match[7] === undefined ? 0 : Math.floor(Number(`0${match[7]}`) * 1000);
  const sign = match[8] === '-' ? -1 : 1;
  const date = new Date(0);
  // setUTCFullYear, not Date.UTC: the latter reads years 0-99 as 1900-1999.
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, Math.min(second, 59), second === 60 ? 999 : millis);
  date.setTime(date.getTime() - sign * (offsetHours * 60 + offsetMinutes) * 60_000);
  return Number.isNaN(date.getTime()) ? null : date;
};
