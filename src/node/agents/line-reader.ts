/**
 * The one reader of lines from agent processes: a line-protocol agent's
 * stdout and a module host's protocol channel. A line longer than the cap,
 * finished or not, is refused at once, so an agent that writes hundreds of
 * megabytes without a newline costs the evaluator at most the cap.
 */
export class BoundedLineReader {
  private buffered: Buffer[] = [];
  private bufferedBytes = 0;

  constructor(readonly maxLineBytes: number) {}

  /** Bytes of an unfinished line held now. */
  get partialBytes(): number {
    return this.bufferedBytes;
  }

  /**
   * The complete lines (without LF) a chunk finishes, in order; undefined
   * when a line is longer than the cap (the reader then holds nothing).
   */
  push(chunk: Buffer): Buffer[] | undefined {
    const lines: Buffer[] = [];
    let start = 0;
    for (let nl = chunk.indexOf(0x0a); nl >= 0; nl = chunk.indexOf(0x0a, start)) {
      const piece = chunk.subarray(start, nl);
      if (this.bufferedBytes + piece.length > this.maxLineBytes) return this.overflow();
      lines.push(this.buffered.length === 0 ? piece : Buffer.concat([...this.buffered, piece]));
      this.buffered = [];
      this.bufferedBytes = 0;
      start = nl + 1;
    }
    if (start < chunk.length) {
      this.buffered.push(chunk.subarray(start));
      this.bufferedBytes += chunk.length - start;
      if (this.bufferedBytes > this.maxLineBytes) return this.overflow();
    }
    return lines;
  }

  /** Drops whatever is held. */
  clear(): void {
    this.buffered = [];
    this.bufferedBytes = 0;
  }

  private overflow(): undefined {
    this.clear();
    return undefined;
  }
}
