/**
 * Bytes of ASCII as a string: the record writer's one decode of a whole
 * record, and the direction strings of large crowds (sim/ascii-buffer.ts,
 * sim/direction-text.ts). The default is the platform's TextDecoder, or
 * String.fromCharCode in chunks where there is none; a platform may supply
 * a faster one (src/node/native-hash.ts: Node's ASCII decoding of a Buffer,
 * ten times Node 20's TextDecoder on a megabyte). The string is the same
 * whichever makes it, for ASCII bytes, which is all any caller passes.
 */

/** The one TextDecoder use (src/core compiles without DOM or Node types); Node, browsers and Electron have it. */
declare const TextDecoder: (new () => { decode(bytes: Uint8Array): string }) | undefined;

const CHUNK = 8192;

function charCodesText(bytes: Uint8Array): string {
  let out = '';
  for (let start = 0; start < bytes.length; start += CHUNK) {
    // Reflect.apply takes the typed array as the argument list directly (Function.prototype.apply is typed for arrays only).
    out += String(Reflect.apply(String.fromCharCode, null, bytes.subarray(start, start + CHUNK)));
  }
  return out;
}

const decoder = typeof TextDecoder === 'function' ? new TextDecoder() : undefined;
let decode: (bytes: Uint8Array) => string = decoder !== undefined ? (bytes) => decoder.decode(bytes) : charCodesText;

/** The string of `bytes`, every one of which is ASCII (below 0x80). */
export function asciiText(bytes: Uint8Array): string {
  return decode(bytes);
}

/** Lets a platform supply a faster decoding of ASCII bytes (ascii-text.test.ts and native-hash.test.ts hold it to the default's answers). */
export function useAsciiDecoder(faster: (bytes: Uint8Array) => string): void {
  decode = faster;
}
