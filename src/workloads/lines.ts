/**
 * Text files read line by line, streaming (plain or gzip, detected from the
 * content), with the SWF reader's rules: lines end at LF, CRLF or a lone CR
 * in any mix, the last needs no line break, a UTF-8 byte-order mark is
 * skipped, and a line longer than 1 MiB is an error raised before it is held
 * in memory. For the line-based formats other than SWF (sacct logs).
 */
import { InputError, explainFsError } from '../util/errors';
import { checkReadable, openDecompressed, SWF_LIMITS } from './swf';

/** One line of a file: its text (without the line break) and 1-based number. */
export interface NumberedLine {
  text: string;
  line: number;
}

/** The lines of a plain or gzip file, streaming; `fn` names the caller in messages. */
export async function* readLines(path: string, fn: string): AsyncGenerator<NumberedLine> {
  checkReadable(path, fn);
  const { raw, input, gzip } = openDecompressed(path, fn);
  const splitter = new LineSplitter(path);
  try {
    for await (const chunk of input) yield* splitter.push(chunk as Buffer);
  } catch (e) {
    if (e instanceof InputError) throw e;
    throw new InputError(`${fn}: cannot read ${path}${gzip ? ' (damaged or truncated gzip data)' : ''} after line ${splitter.lines}: ${explainFsError(e)}`, { source: path, line: splitter.lines + 1 });
  } finally {
    input.destroy();
    raw.destroy();
  }
  yield* splitter.end();
}

/** The lines of text held in memory (same rules as {@link readLines}). */
export function* splitLines(text: string, source = '<text>'): Generator<NumberedLine> {
  const splitter = new LineSplitter(source);
  yield* splitter.push(Buffer.from(text, 'utf8'));
  yield* splitter.end();
}

/** Bytes in, lines out; a line may span chunks. */
export class LineSplitter {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private afterCR = false;
  lines = 0;

  constructor(private readonly source: string) {}

  *push(chunk: Buffer): Generator<NumberedLine> {
    let start = 0;
    if (this.afterCR && chunk.length > 0) {
      this.afterCR = false;
      if (chunk[0] === 10) start = 1;
    }
    for (let j = start; j < chunk.length; j++) {
      const c = chunk[j];
      if (c !== 10 && c !== 13) continue;
      yield this.emit(chunk.subarray(start, j));
      if (c === 13) {
        if (j + 1 < chunk.length) {
          if (chunk[j + 1] === 10) j++;
        } else this.afterCR = true;
      }
      start = j + 1;
    }
    if (start < chunk.length) this.keep(chunk.subarray(start));
  }

  *end(): Generator<NumberedLine> {
    if (this.pendingBytes > 0) yield this.emit(Buffer.alloc(0));
  }

  private keep(piece: Buffer): void {
    if (this.pendingBytes + piece.length > SWF_LIMITS.maxLineBytes) this.tooLong();
    this.pending.push(Buffer.from(piece));
    this.pendingBytes += piece.length;
  }

  private emit(tail: Buffer): NumberedLine {
    let bytes = tail;
    if (this.pendingBytes > 0) {
      bytes = Buffer.concat([...this.pending, tail]);
      this.pending = [];
      this.pendingBytes = 0;
    }
    if (bytes.length > SWF_LIMITS.maxLineBytes) this.tooLong();
    const line = ++this.lines;
    let text = bytes.toString('utf8');
    if (line === 1 && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    return { text, line };
  }

  private tooLong(): never {
    throw new InputError(`${this.source}:${this.lines + 1}: line: longer than ${SWF_LIMITS.maxLineBytes} bytes (1 MiB) without a line break`, { source: this.source, line: this.lines + 1, field: 'line' });
  }
}
