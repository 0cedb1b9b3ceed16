/**
 * A state as one JSON text, or null when it is longer than one string may be: V8 caps a
 * string at about 512 MiB (JSON.stringify throws a RangeError), and the ledger view of a
 * 10,000,000-event log is about a gigabyte of JSON. `maxChars` lowers the cap (tests).
 */
export const wholeText = (state: unknown, maxChars = Number.POSITIVE_INFINITY): string | null => {
  try {
    const json = JSON.stringify(state);
    return json.length <= maxChars ? json : null;
  } catch (error) {
    if (error instanceof RangeError) return null;
    throw error;
  }
};
