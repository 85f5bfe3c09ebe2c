/**
 * Ctrl+C: remove every temporary (and half-written direct) output file,
 * report `interrupted` in the command's output format, exit 130.
 */

import { removePendingOutputs } from '../node/files.js';
import { EXIT_CODES, InterruptedError } from './exit-codes.js';
import type { CliIO } from './io.js';
import { writeFailure } from './output.js';
import { endActiveProgress } from './progress.js';

let takeover: (() => void) | undefined;

/**
 * A long-running command (`serve`) that stops gracefully on Ctrl+C takes
 * SIGINT over: until the returned function is called, SIGINT calls
 * `handler` instead of exiting with 130.
 */
export function takeOverInterrupt(handler: () => void): () => void {
  takeover = handler;
  return () => {
    if (takeover === handler) takeover = undefined;
  };
}

/** Installs the SIGINT handler; returns the function that removes it. */
export function installInterruptHandler(json: boolean, io: CliIO): () => void {
  const onInterrupt = (): void => {
    if (takeover !== undefined) return takeover();
    removePendingOutputs();
    endActiveProgress();
    writeFailure(new InterruptedError(), { json, debug: false }, io);
    process.exit(EXIT_CODES.interrupted);
  };
  process.on('SIGINT', onInterrupt);
  return () => void process.off('SIGINT', onInterrupt);
}
