/**
 * Ctrl+C (SIGINT) and SIGTERM: the command stops, reports `interrupted` in
 * its output format, and exits 130 (cli-v1.0.md lists 130 as the one
 * INTERRUPTED code, so SIGTERM gives 130 too, not 128 + 15).
 *
 * - A command that can stop cleanly (`evaluation run`) asks for a
 *   gracefulInterrupt: the first signal aborts it; it stops at an episode
 *   boundary (running episodes are abandoned, the journal holds every
 *   finished one, fsynced), releases its output lock and exits 130, and
 *   `--resume` continues it. A second signal stops at once.
 * - Any other command stops at once: every temporary (and half-written
 *   direct) output file is removed, and the process exit hook releases the
 *   output locks it holds.
 *
 * The handlers are installed by the CLI itself, so this holds also as PID 1
 * in a container, where the kernel delivers no signal that has no handler
 * (Node installs none there).
 */

import { removePendingOutputs } from '../node/files.js';
import { EXIT_CODES, InterruptedError } from './exit-codes.js';
import type { CliIO } from './io.js';
import { writeFailure } from './output.js';
import { endActiveProgress } from './progress.js';

/** The signals that interrupt a command. */
export const INTERRUPT_SIGNALS = ['SIGINT', 'SIGTERM'] as const;

let takeover: (() => void) | undefined;
let graceful: AbortController | undefined;

/**
 * A long-running command (`serve`) that stops gracefully on Ctrl+C takes
 * SIGINT and SIGTERM over: until the returned function is called, they call
 * `handler` instead of exiting with 130.
 */
export function takeOverInterrupt(handler: () => void): () => void {
  takeover = handler;
  return () => {
    if (takeover === handler) takeover = undefined;
  };
}

/**
 * For a command that stops cleanly: `signal` is aborted by the first SIGINT
 * or SIGTERM (the command then throws its `interrupted` error); `release`
 * ends this, after which a signal stops the process at once again.
 */
export function gracefulInterrupt(): { readonly signal: AbortSignal; readonly release: () => void } {
  const controller = new AbortController();
  graceful = controller;
  return {
    signal: controller.signal,
    release: () => {
      if (graceful === controller) graceful = undefined;
    },
  };
}

/** Installs the SIGINT and SIGTERM handlers; returns the function that removes them. */
export function installInterruptHandler(json: boolean, io: CliIO): () => void {
  const onInterrupt = (): void => {
    if (takeover !== undefined) return takeover();
    if (graceful !== undefined && !graceful.signal.aborted) {
      if (!json) io.stderr('emberbench: stopping after the episodes committed so far (signal again to stop at once)\n');
      graceful.abort();
      return;
    }
    removePendingOutputs();
    endActiveProgress();
    writeFailure(new InterruptedError(), { json, debug: false }, io);
    process.exit(EXIT_CODES.interrupted);
  };
  for (const signal of INTERRUPT_SIGNALS) process.on(signal, onInterrupt);
  return () => {
    for (const signal of INTERRUPT_SIGNALS) process.off(signal, onInterrupt);
  };
}
