/** The most of any offending text a message quotes: enough to find it, never a whole file on a terminal. */
export const QUOTE_LIMIT = 80;

/**
 * Text from a file, made safe to print: control bytes, NULs and DEL escaped (`\x00`),
 * cut to `limit` characters with an ellipsis. A binary or garbage file never puts raw
 * bytes on the operator's terminal, and never makes a message as long as the file.
 */
export const quoteText = (text: string, limit = QUOTE_LIMIT): string => {
  const cut = text.length > limit ? text.slice(0, limit) : text;
  const safe = cut.replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
  return text.length > limit ? `${safe}…` : safe;
};
