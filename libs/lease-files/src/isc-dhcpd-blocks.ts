import { lexIscLine, type IscToken } from './isc-dhcpd-lexer';
import { QUOTE_LIMIT, quoteText } from './quote-text';

/** Tokens kept of a top-level statement that starts with no known keyword: enough to quote it, so garbage never piles up in memory. */
const MAX_GARBAGE_TOKENS = 32;

/** `words... ;` */
export interface IscStatement {
  words: IscToken[];
  line: number;
}

/** `header... { statements and nested blocks }` */
export interface IscBlock {
  header: IscToken[];
  line: number;
  statements: IscStatement[];
  blocks: IscBlock[];
}

export interface IscStructureSink {
  /** A complete, well-formed top-level block. */
  block(block: IscBlock): void;
  /** A top-level `words... ;` statement (server-duid, authoring-byte-order...). */
  statement(statement: IscStatement): void;
  /** `block` is set when the problem costs a whole top-level block (a lease entry, if it is a lease block). */
  problem(line: number, reason: string, block?: IscBlock): void;
  /** Lines that are no part of any declaration a lease file holds: garbage, or not a lease file at all. */
  unrecognisedLine?(line: number): void;
}

/** Keywords that open a top-level declaration in a lease file. */
export const TOP_LEVEL_KEYWORDS = new Set([
  'lease',
  'ia-na',
  'ia-ta',
  'ia-pd',
  'failover',
  'host',
  'group',
  'subgroup',
  'class',
  'subclass',
  'server-duid',
  'authoring-byte-order',
]);
/** The ones that never appear inside another declaration: seeing one at the start of a line inside a block means that block was cut short. */
const LEASE_KEYWORDS = new Set(['lease', 'ia-na', 'ia-ta', 'ia-pd']);

/** Tokens as a message quotes them: at most about 80 characters, control bytes escaped. */
export const wordsText = (tokens: IscToken[]): string => {
  let text = '';
  for (const t of tokens) {
    text += (text ? ' ' : '') + (t.kind === 'string' ? JSON.stringify(t.text) : t.text);
    if (text.length > QUOTE_LIMIT) break;
  }
  return quoteText(text);
};

const describeBlock = (block: IscBlock): string => `'${wordsText(block.header.slice(0, 2))}' block at line ${block.line}`;

/**
 * Turns the token stream of a lease file into top-level statements and blocks, one line
 * at a time. A block that cannot be read (a broken string, a statement without its `;`,
 * a block that a crash cut short) is reported with its line and dropped, and reading
 * carries on with the next declaration: one bad block never costs the rest of the file.
 */
export class IscBlockReader {
  private stack: IscBlock[] = [];
  private pending: IscToken[] = [];
  private broken: { line: number; reason: string } | null = null;
  private lineNumber = 0;

  constructor(private readonly sink: IscStructureSink) {}

  get currentLine(): number {
    return this.lineNumber;
  }

  /** Between declarations: every block and statement read so far is closed, none is begun. */
  get atRest(): boolean {
    return this.stack.length === 0 && this.pending.length === 0;
  }

  pushLine(text: string): void {
    const line = ++this.lineNumber;
    const { tokens, fault } = lexIscLine(text, line);
    if (this.stack.length === 0 && (fault || this.startsNothingKnown(tokens[0]))) this.sink.unrecognisedLine?.(line);
    for (const token of tokens) this.token(token);
    if (fault) {
      if (this.stack.length > 0) this.breakBlock(line, fault);
      else {
        this.sink.problem(line, `${fault}; the line is skipped`);
        this.pending = [];
      }
    }
  }

  end(): void {
    if (this.stack.length > 0) {
      this.sink.problem(
        this.stack[0].line,
        `${describeBlock(this.stack[0])} is not closed at the end of the file (a truncated write?); skipped`,
        this.stack[0],
      );
    } else if (this.pending.length > 0) {
      this.sink.problem(this.pending[0].line, `'${wordsText(this.pending)}' has no ';' at the end of the file; skipped`);
    }
    this.stack = [];
    this.pending = [];
    this.broken = null;
  }

  /** A top-level line that neither opens a declaration a lease file holds, nor continues one. */
  private startsNothingKnown(first: IscToken | undefined): boolean {
    if (!first) return false;
    if (first.kind === 'word' && TOP_LEVEL_KEYWORDS.has(first.text)) return false;
    const continuing = this.pending.length > 0 && this.pending[0].kind === 'word' && TOP_LEVEL_KEYWORDS.has(this.pending[0].text);
    return !continuing && !(first.kind === '{' && this.pending.length > 0);
  }

  private token(token: IscToken): void {
    if (token.firstOnLine && token.kind === 'word') this.resyncAt(token);
    switch (token.kind) {
      case ';':
        return this.endStatement(token);
      case '{':
        return this.openBlock(token);
      case '}':
        return this.closeBlock(token);
      default:
        if (this.stack.length > 0 || this.pending.length < MAX_GARBAGE_TOKENS || TOP_LEVEL_KEYWORDS.has(this.pending[0].text)) this.pending.push(token);
    }
  }

  /** A line starting a new declaration while the previous one is unfinished: report the unfinished one and start afresh. */
  private resyncAt(token: IscToken): void {
    if (this.stack.length > 0 && LEASE_KEYWORDS.has(token.text)) {
      const open = this.stack[0];
      this.sink.problem(
        this.broken?.line ?? open.line,
        `${describeBlock(open)} is not closed before line ${token.line}${this.broken ? ` (${this.broken.reason})` : ''}; skipped`,
        open,
      );
      this.stack = [];
      this.pending = [];
      this.broken = null;
    } else if (this.stack.length === 0 && this.pending.length > 0 && TOP_LEVEL_KEYWORDS.has(token.text)) {
      this.sink.problem(this.pending[0].line, `'${wordsText(this.pending)}' is not a complete statement (no ';' before line ${token.line}); skipped`);
      this.pending = [];
    }
  }

  private endStatement(token: IscToken): void {
    const statement = { words: this.pending, line: this.pending[0]?.line ?? token.line };
    this.pending = [];
    if (this.stack.length === 0) this.sink.statement(statement);
    else this.stack[this.stack.length - 1].statements.push(statement);
  }

  private openBlock(token: IscToken): void {
    const block: IscBlock = { header: this.pending, line: this.pending[0]?.line ?? token.line, statements: [], blocks: [] };
    this.pending = [];
    if (this.stack.length > 0) this.stack[this.stack.length - 1].blocks.push(block);
    this.stack.push(block);
  }

  private closeBlock(token: IscToken): void {
    if (this.stack.length === 0) {
      this.sink.problem(token.line, `'}' without an open block; ignored`);
      this.pending = [];
      return;
    }
    if (this.pending.length > 0) this.breakBlock(this.pending[0].line, `'${wordsText(this.pending)}' has no ';'`);
    this.pending = [];
    const closed = this.stack.pop()!;
    if (this.stack.length > 0) return;
    const broken = this.broken;
    this.broken = null;
    if (broken) this.sink.problem(broken.line, `${describeBlock(closed)} skipped: ${broken.reason}`, closed);
    else this.sink.block(closed);
  }

  private breakBlock(line: number, reason: string): void {
    this.broken ??= { line, reason };
  }
}
