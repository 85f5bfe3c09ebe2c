/** Where the command writes. main() never touches process.stdout directly, so tests can run it in-process. */

export interface CliIO {
  stdout(text: string): void;
  stderr(text: string): void;
  /** stderr is a terminal: long commands may show progress there (src/cli/progress.ts). */
  readonly stderrIsTerminal?: boolean;
}

/** An in-memory CliIO for tests and embedding. */
export function captureIO(): CliIO & { readonly out: () => string; readonly err: () => string } {
  const out: string[] = [];
  const err: string[] = [];
  return {
    stdout: (text) => void out.push(text),
    stderr: (text) => void err.push(text),
    out: () => out.join(''),
    err: () => err.join(''),
  };
}
