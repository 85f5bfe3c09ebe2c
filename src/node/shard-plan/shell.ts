/** Shell words for generated scripts and printed commands. */

/** One POSIX shell word: as is when it needs no quoting, else single-quoted. */
export function shellWord(word: string): string {
  return /^[A-Za-z0-9_./:@%+=,-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}
