/**
 * Lifecycle of agent child processes, shared by the module host and the
 * line-protocol host: exit tracking, the stderr tail for error messages,
 * SIGKILL-and-reap, and every live child held in a ResourceScope (lifetime.ts).
 */

import type { ChildProcess } from 'node:child_process';
import { STDERR_TAIL_BYTES } from '../../shared/agent-protocol.js';
import { processResource, processScope, type ResourceScope } from '../lifetime.js';
import { settleLaunch } from './sandbox-launch.js';

export interface ChildExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  /** The sandbox cap the process ran into ("the memory cap of 4 GiB (--agent-memory)"), if any. */
  readonly cap?: string;
}

/** Keeps the last {@link STDERR_TAIL_BYTES} bytes written to a stream. */
export class StderrTail {
  private chunks: Buffer[] = [];
  private size = 0;

  push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.size += chunk.length;
    while (this.size - this.chunks[0]!.length >= STDERR_TAIL_BYTES) {
      this.size -= this.chunks.shift()!.length;
    }
  }

  /** The tail as text, trimmed; may start inside a UTF-8 sequence (shown as U+FFFD). */
  text(): string {
    const all = Buffer.concat(this.chunks);
    return all.subarray(Math.max(0, all.length - STDERR_TAIL_BYTES)).toString('utf8').trim();
  }
}

/** "agent process exited with code N" plus the stderr tail, if any. */
export function describeExit(exit: ChildExit, tail: StderrTail): string {
  const how = exit.cap !== undefined ? `exceeded ${exit.cap}` : exit.signal !== null ? `was killed by signal ${exit.signal}` : `exited with code ${exit.code ?? 'unknown'}`;
  const stderr = tail.text();
  return `agent process ${how}` + (stderr === '' ? '' : `; stderr: ${stderr}`);
}

/** How long to wait for stdio to close after the process itself exited. */
const STDIO_CLOSE_GRACE_MS = 250;

/**
 * Tracks a spawned child: holds it in `scope` (default processScope) until
 * it exits, so disposing the scope or exiting the process SIGKILLs it
 * (children must never outlive the evaluator), drains stderr into
 * `tail` and stdout into `onStdout` (or discards it) so a flooding agent never
 * blocks, and returns a promise of its exit that never rejects.
 *
 * The promise resolves on 'close' (all stdio drained, so the stderr tail is
 * complete), or shortly after 'exit' when a grandchild keeps a pipe open.
 */
export function trackChild(child: ChildProcess, tail: StderrTail, onStdout?: (chunk: Buffer) => void, scope: ResourceScope = processScope): Promise<ChildExit> {
  const release = scope.add(processResource(() => void child.kill('SIGKILL')));
  child.stderr?.on('data', (chunk: Buffer) => tail.push(chunk));
  if (child.stdout) {
    if (onStdout) child.stdout.on('data', onStdout);
    else child.stdout.resume();
  }
  // Errors here are reported through the exit or the caller's own checks;
  // an unhandled 'error' event would crash the evaluator.
  child.stdout?.on('error', () => undefined);
  child.stderr?.on('error', () => undefined);
  child.stdin?.on('error', () => undefined);
  return new Promise((resolveExit) => {
    let done = false;
    let grace: NodeJS.Timeout | undefined;
    const finish = (exit: ChildExit): void => {
      if (done) return;
      done = true;
      if (grace) clearTimeout(grace);
      release();
      // A sandboxed launch: its temporary folder goes, and a cap it ran into is named.
      const cap = settleLaunch(child, exit, () => tail.text());
      resolveExit(cap === undefined ? exit : { ...exit, cap });
    };
    child.on('close', (code: number | null, signal: NodeJS.Signals | null) => finish({ code, signal }));
    child.on('exit', (code: number | null, signal: NodeJS.Signals | null) => {
      grace = setTimeout(() => finish({ code, signal }), STDIO_CLOSE_GRACE_MS);
    });
    // A spawn failure emits 'error' and possibly no 'exit'.
    child.on('error', () => {
      if (child.pid === undefined) finish({ code: null, signal: null });
    });
  });
}

/** Whether the child is still running (not yet exited or killed). */
export function isRunning(child: ChildProcess): boolean {
  return child.exitCode === null && child.signalCode === null && child.pid !== undefined;
}

/** SIGKILLs the child (if running) and waits until it is reaped. */
export async function killAndReap(child: ChildProcess, exited: Promise<ChildExit>): Promise<ChildExit> {
  // Re-ref so the event loop cannot end (and the process exit) before the
  // caller's code after this await has run.
  child.ref();
  if (isRunning(child)) child.kill('SIGKILL');
  return exited;
}

/**
 * Waits up to `graceMs` for the child to exit on its own, then SIGKILLs it;
 * resolves once it is reaped. The timer is ref'd so the wait completes.
 */
export async function exitOrKill(child: ChildProcess, exited: Promise<ChildExit>, graceMs: number): Promise<ChildExit> {
  child.ref();
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolveTimeout) => {
    timer = setTimeout(() => resolveTimeout('timeout'), graceMs);
  });
  const first = await Promise.race([exited, timedOut]);
  clearTimeout(timer);
  return first === 'timeout' ? killAndReap(child, exited) : first;
}

/**
 * Lets the evaluator exit even if a session is never closed: the child, its
 * IPC channel and its pipes stop holding the event loop open. A pending
 * request keeps it alive through its own deadline timer; the exit hook then
 * kills whatever is left.
 */
export function unrefChild(child: ChildProcess): void {
  child.unref();
  for (const handle of [child.channel, child.stdin, child.stdout, child.stderr]) {
    (handle as { unref?: () => void } | null | undefined)?.unref?.();
  }
}
