/**
 * A bound on the strings of a JSON text, checked on its bytes as they are
 * read, before anything is parsed: a text holding a string longer than any
 * its format allows is refused at the first byte past the limit, so a
 * 300 MB string costs a read of a little more than the limit, never a
 * 300 MB allocation (or several, while it is parsed and checked).
 *
 * Only quotes and backslashes are looked at: the string's length is counted
 * in bytes as written (an escape sequence counts its bytes). A text that is
 * not JSON at all is left to the parser, which then says what is wrong.
 */

export class JsonStringLengthGuard {
  private inString = false;
  private escaped = false;
  private length = 0;
  private start = 0;
  private offset = 0;

  constructor(readonly maxBytes: number) {}

  /** The next bytes of the text; returns the byte offset of the opening quote of a string found too long, or -1. */
  push(chunk: Uint8Array): number {
    const n = chunk.length;
    let i = 0;
    // The next backslash at or after i (-1: none left in the chunk), searched again only once passed:
    // searching from every string's start made a chunk of many short strings quadratic to scan.
    let backslashAt = chunk.indexOf(0x5c, 0);
    while (i < n) {
      if (!this.inString) {
        const quote = chunk.indexOf(0x22, i);
        if (quote < 0) break;
        this.inString = true;
        this.escaped = false;
        this.length = 0;
        this.start = this.offset + quote;
        i = quote + 1;
        continue;
      }
      if (this.escaped) {
        this.escaped = false;
        this.length++;
        i++;
      } else {
        // The next quote or backslash ends a run of plain string bytes.
        const quote = chunk.indexOf(0x22, i);
        if (backslashAt >= 0 && backslashAt < i) backslashAt = chunk.indexOf(0x5c, i);
        const backslash = backslashAt;
        const stop = quote < 0 ? backslash : backslash < 0 ? quote : Math.min(quote, backslash);
        const end = stop < 0 ? n : stop;
        this.length += end - i;
        i = end;
        if (this.length > this.maxBytes) break;
        if (stop >= 0) {
          if (stop === quote) this.inString = false;
          else {
            this.escaped = true;
            this.length++;
          }
          i = stop + 1;
        }
      }
      if (this.length > this.maxBytes) break;
    }
    this.offset += n;
    return this.inString && this.length > this.maxBytes ? this.start : -1;
  }
}
