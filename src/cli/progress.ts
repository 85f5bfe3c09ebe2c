/**
 * Progress of a long command on stderr: only when stderr is a terminal and
 * never with --json (whose stderr is one error line or nothing). One line,
 * rewritten in place (carriage return, no escape codes: cli-v1.0.md "Output")
 * at most every PROGRESS_INTERVAL_MS and blanked when the command ends.
 */

import type { StepProgress, Steps } from '../core/steps.js';
import { driveSteps } from '../node/cooperative.js';
import type { CliIO } from './io.js';

const PROGRESS_INTERVAL_MS = 250;

export interface ProgressLine {
  /** Shows one progress report (rate-limited). */
  readonly show: (progress: StepProgress) => void;
  /** Erases the line, if one was shown. */
  readonly end: () => void;
}

const SILENT: ProgressLine = { show: () => undefined, end: () => undefined };

/** The line being shown, blanked by Ctrl+C (interrupt.ts) before the error line. */
let active: ProgressLine | undefined;

/** Blanks the progress line being shown, if any. */
export function endActiveProgress(): void {
  active?.end();
}

/** A progress line for this command: silent unless stderr is a terminal and --json is not given. */
export function progressLine(io: CliIO, json: boolean): ProgressLine {
  if (json || io.stderrIsTerminal !== true) return SILENT;
  let last = 0;
  let width = 0;
  const line: ProgressLine = {
    show: (progress) => {
      const now = Date.now();
      if (now - last < PROGRESS_INTERVAL_MS) return;
      last = now;
      const percent = progress.total > 0 ? Math.floor((100 * progress.done) / progress.total) : 0;
      const text = `${progress.what}: ${progress.done}/${progress.total} (${percent}%)`;
      io.stderr(`\r${text.padEnd(width)}`);
      width = Math.max(width, text.length);
      active = line;
    },
    end: () => {
      if (width > 0) io.stderr(`\r${' '.repeat(width)}\r`);
      width = 0;
      if (active === line) active = undefined;
    },
  };
  return line;
}

/**
 * Runs core steps for a command: yielding to the event loop between slices
 * (src/node/cooperative.ts), so Ctrl+C exits 130 at once, and showing
 * progress on a terminal's stderr.
 */
export async function runLong<T>(steps: Steps<T>, io: CliIO, json: boolean): Promise<T> {
  return withProgress(io, json, (onProgress) => driveSteps(steps, { onProgress }));
}

/**
 * Runs a service that drives its own steps or I/O loop cooperatively and
 * reports progress through `onProgress`: shown as runLong shows it, and
 * blanked when the work ends (or fails).
 */
export async function withProgress<T>(io: CliIO, json: boolean, work: (onProgress: (progress: StepProgress) => void) => Promise<T>): Promise<T> {
  const line = progressLine(io, json);
  try {
    return await work(line.show);
  } finally {
    line.end();
  }
}
