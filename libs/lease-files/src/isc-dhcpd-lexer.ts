/**
 * The tokens of dhcpd.leases, one line at a time (dhcpd never writes a string across a
 * line). Follows ISC's conflex: `#` starts a comment outside strings; strings are
 * double-quoted with `\"`, `\\`, `\t`, `\n`, `\r`, `\b`, octal `\NNN` and `\xNN` escapes;
 * `{`, `}` and `;` are tokens of their own; anything else up to whitespace is a word.
 */
export type IscToken =
  | { kind: 'word'; text: string; line: number; firstOnLine: boolean }
  | { kind: 'string'; text: string; bytes: Uint8Array; line: number; firstOnLine: boolean }
  | { kind: '{' | '}' | ';'; text: string; line: number; firstOnLine: boolean };

export interface LexedLine {
  tokens: IscToken[];
  /** Set when the line could not be read completely (the tokens before the fault are kept). */
  fault?: string;
}

const SIMPLE_ESCAPES: Record<string, number> = { t: 9, n: 10, r: 13, b: 8 };
const isSpace = (c: string) => c === ' ' || c === '\t' || c === '\r' || c === '\f' || c === '\v';
const ends = (c: string) => isSpace(c) || c === '{' || c === '}' || c === ';' || c === '"' || c === '#';

const readString = (text: string, start: number): { bytes: number[]; end: number } | null => {
  const bytes: number[] = [];
  let i = start;
  while (i < text.length) {
    const c = text[i];
    if (c === '"') return { bytes, end: i + 1 };
    if (c !== '\\') {
      const code = text.codePointAt(i) ?? 0;
      const char = String.fromCodePoint(code);
      if (code < 128) bytes.push(code);
      else bytes.push(...Buffer.from(char, 'utf8'));
      i += char.length;
      continue;
    }
    const next = text[i + 1];
    if (next === undefined) return null;
    const octal = /^[0-7]{1,3}/.exec(text.slice(i + 1, i + 4));
    const hex = next === 'x' ? /^[0-9A-Fa-f]{1,2}/.exec(text.slice(i + 2, i + 4)) : null;
    if (octal) {
      bytes.push(parseInt(octal[0], 8) & 255);
      i += 1 + octal[0].length;
    } else if (hex) {
      bytes.push(parseInt(hex[0], 16));
      i += 2 + hex[0].length;
    } else {
      bytes.push(SIMPLE_ESCAPES[next] ?? next.charCodeAt(0) & 255);
      i += 2;
    }
  }
  return null;
};

export const lexIscLine = (text: string, line: number): LexedLine => {
  const tokens: IscToken[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    const firstOnLine = tokens.length === 0;
    if (isSpace(c)) {
      i++;
    } else if (c === '#') {
      break;
    } else if (c === '{' || c === '}' || c === ';') {
      tokens.push({ kind: c, text: c, line, firstOnLine });
      i++;
    } else if (c === '"') {
      const string = readString(text, i + 1);
      if (!string) return { tokens, fault: `unterminated string starting at column ${i + 1}` };
      const bytes = Uint8Array.from(string.bytes);
      tokens.push({ kind: 'string', text: Buffer.from(bytes).toString('utf8'), bytes, line, firstOnLine });
      i = string.end;
    } else {
      let j = i;
      while (j < text.length && !ends(text[j])) j++;
      tokens.push({ kind: 'word', text: text.slice(i, j), line, firstOnLine });
      i = j;
    }
  }
  return { tokens };
};
