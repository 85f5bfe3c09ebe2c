/**
 * What a failed file-system call says, for error messages: Node's errors
 * carry an errno code (ENOENT, EACCES, ...) that names the cause more
 * precisely than their message.
 */

/** The errno code of a Node file-system error, or undefined for any other value. */
export function errnoCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** The errno code, else the error's message: the short reason to print after a path. */
export function errnoText(error: unknown): string {
  return errnoCode(error) ?? (error instanceof Error ? error.message : String(error));
}
