/**
 * The model ID check: non-empty, printable, at most 256 characters, no outer
 * whitespace. "Printable" follows Python's str.isprintable(): no control,
 * format, surrogate or private-use characters and no separator but the space.
 */

const NON_PRINTABLE = /[\p{C}\p{Z}]/u;

export function modelIdProblem(id: string): string | null {
  if (id.length === 0) return 'must not be empty';
  if ([...id].length > 256) return 'must be at most 256 characters';
  if (id.trim() !== id) return 'must not start or end with whitespace';
  for (const ch of id) {
    if (ch !== ' ' && NON_PRINTABLE.test(ch)) {
      return `must be printable (found U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')})`;
    }
  }
  return null;
}

export function isModelId(id: string): boolean {
  return modelIdProblem(id) === null;
}
