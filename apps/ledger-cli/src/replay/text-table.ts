export type Format = 'table' | 'md';

const cell = (value: unknown): string => {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  return text.replace(/\s+/g, ' ');
};

/** Rows as an aligned text table, or a Markdown table: the two human formats replay prints. */
export const renderTable = (columns: readonly string[], rows: readonly unknown[][], format: Format): string => {
  const cells = rows.map((row) => row.map(cell));
  if (format === 'md') {
    const escape = (text: string) => text.replace(/\|/g, '\\|');
    return [`| ${columns.join(' | ')} |`, `| ${columns.map(() => '---').join(' | ')} |`, ...cells.map((row) => `| ${row.map(escape).join(' | ')} |`)].join(
      '\n',
    );
  }
  // Every column but the last (the summary, the one that matters) is cut at 60 characters.
  const widths = columns.map((column, i) => Math.min(i === columns.length - 1 ? Infinity : 60, Math.max(column.length, ...cells.map((row) => row[i].length))));
  const line = (row: string[]) =>
    row
      .map((text, i) => (text.length > widths[i] ? `${text.slice(0, widths[i] - 1)}…` : text.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  return [line([...columns]), line(widths.map((width) => '-'.repeat(width))), ...cells.map(line)].join('\n');
};
