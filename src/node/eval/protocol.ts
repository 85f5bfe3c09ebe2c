/**
 * Messages between the evaluation runner (main thread) and its episode
 * workers (--jobs N), and errors as plain data so that an AgentError thrown
 * in a worker is still an AgentError, with its failure kind, in the runner.
 */

import {
  AgentError,
  EndpointError,
  EmberError,
  MismatchError,
  ModelOutputError,
  OutputError,
  UsageError,
  ValidationError,
  isEmberError,
  type ErrorKind,
  type FailureKind,
} from '../../core/errors.js';
import type { ManifestEpisode } from '../../core/eval/manifest.js';
import type { ResultEpisode } from '../../core/eval/result.js';
import type { AgentSpec } from '../agents/spec.js';
import type { EntryPoints } from '../entry-points.js';
import type { AgentSandboxOptions } from '../agents/sandbox-options.js';
import type { EpisodeScoring, EpisodeScoringContext } from './evaluate-episode.js';

/**
 * Where a worker loads the suite from: its folder (the CLI), or the bytes of
 * its files (the app: the archive's copy, cloned into the worker, never
 * written to disk). Either way the worker authenticates it again.
 */
export type WorkerSuite = { readonly dir: string } | { readonly files: ReadonlyMap<string, Uint8Array>; readonly source: string };

/** What a worker needs to run episodes: it loads the suite itself and opens its own agent session. */
export interface WorkerConfig {
  readonly suite: WorkerSuite;
  /** The suite hash the runner loaded: a worker that loads another suite refuses to run. */
  readonly suiteHash: string;
  readonly agent: AgentSpec;
  readonly agentPaths: readonly string[];
  readonly actTimeoutMs: number;
  /** The worker's own entry (to start it) and the module host's (for its agent session). */
  readonly entryPoints: EntryPoints;
  /** The sandbox of a module or command agent (plain data, cloned into the worker); default the default policy. */
  readonly sandbox?: AgentSandboxOptions;
  /** Score each episode in the worker (the app's pool); absent for the CLI. */
  readonly scoring?: EpisodeScoringContext;
}

export type ToWorker = { readonly type: 'run'; readonly job: ManifestEpisode } | { readonly type: 'close' };

export type FromWorker =
  | { readonly type: 'ready' }
  | { readonly type: 'done'; readonly episode: ResultEpisode; readonly scoring: EpisodeScoring | undefined }
  | { readonly type: 'error'; readonly error: WireError }
  /** An agent process the worker started (live) or saw end (not live). */
  | { readonly type: 'child'; readonly pid: number; readonly live: boolean }
  | { readonly type: 'closed' };

export interface WireError {
  /** The EmberError kind, or null for any other error (a bug: exit 1). */
  readonly kind: ErrorKind | null;
  readonly failure: FailureKind | null;
  readonly outputError: boolean;
  /** An EndpointError (the run stops at it whatever the failure policy). */
  readonly endpointError?: true;
  readonly message: string;
  readonly stack: string | null;
  /** The EmberError's field, if any. */
  readonly field?: string;
}

export function toWire(error: unknown): WireError {
  const message = error instanceof Error ? error.message : String(error);
  const stack = error instanceof Error ? (error.stack ?? null) : null;
  if (!isEmberError(error)) return { kind: null, failure: null, outputError: false, message, stack };
  return {
    kind: error.kind,
    failure: error instanceof AgentError ? error.failure : null,
    outputError: error instanceof ModelOutputError,
    ...(error instanceof EndpointError ? { endpointError: true as const } : {}),
    message,
    stack,
    ...(error.field === undefined ? {} : { field: error.field }),
  };
}

function withStack<T extends Error>(error: T, stack: string | null): T {
  if (stack !== null) error.stack = stack;
  return error;
}

export function fromWire(wire: WireError): Error {
  const { kind, message, stack } = wire;
  if (kind === null) return withStack(new Error(message), stack);
  switch (kind) {
    case 'agent':
      if (wire.outputError) return withStack(new ModelOutputError(message), stack);
      if (wire.endpointError === true) return withStack(new EndpointError(message), stack);
      return withStack(new AgentError(wire.failure ?? 'model_error', message), stack);
    case 'validation':
      return withStack(new ValidationError(message), stack);
    case 'mismatch':
      return withStack(new MismatchError(message), stack);
    case 'usage':
      return withStack(new UsageError(message, { field: wire.field }), stack);
    case 'output':
      return withStack(new OutputError(message), stack);
    case 'internal':
    case 'interrupted':
      return withStack(new EmberError(kind, message), stack);
  }
}
