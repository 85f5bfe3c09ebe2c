/**
 * One JS/TS module host process, seen from the evaluator: module-host-main
 * runs in it, imports the agent module once and serves one request at a
 * time (a new agent, an act, the end of an agent). Any failure (timeout,
 * crash, error, a reply out of protocol) marks the host unusable; the
 * session (module-agent.ts) then kills it and starts a fresh one.
 *
 * The protocol runs over a dedicated pipe, the host's descriptor 3, one
 * JSON message per line, never Node's IPC channel (whose parser a message
 * from agent code could crash): replies are read by the same bounded line
 * reader as the line protocol, so garbage, a line longer than
 * {@link LINE_PROTOCOL_MAX_LINE_BYTES} or a closed channel fails only the
 * episode.
 */

import { spawn, type ChildProcess } from 'node:child_process';
import type { Duplex } from 'node:stream';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { AgentError } from '../../core/errors.js';
import type { ActionSet } from '../../core/sim/actions.js';
import type { Observation } from '../../core/sim/observation.js';
import { isStringRecord, LINE_PROTOCOL_MAX_LINE_BYTES, parseHostReply, type HostReply, type HostRequest, type ViewDelta } from '../../shared/agent-protocol.js';
import { parseStrictJson } from '../../core/json/strict-parse.js';
import { BoundedLineReader } from './line-reader.js';
import { decodeMoves } from './view-delta.js';
import { describeExit, isRunning, killAndReap, StderrTail, trackChild, unrefChild, type ChildExit } from './child-lifecycle.js';
import type { ResourceScope } from '../lifetime.js';
import type { SandboxPlan } from './sandbox.js';
import { sandboxLaunch, spawnLaunch, withMemoryCapNote } from './sandbox-launch.js';
import type { AgentSandboxOptions } from './sandbox-options.js';

export interface ModuleHostOptions {
  /** Deadline of one act (and of one factory call), in ms. */
  readonly actTimeoutMs: number;
  /** Deadline of starting the host and importing the module; default {@link DEFAULT_LOAD_TIMEOUT_MS}. */
  readonly loadTimeoutMs?: number;
  /** The module name for messages (as given on the command line); default the file. */
  readonly label?: string;
  /** The host entry file (EntryPoints.moduleHost): passed in, never guessed, so bundles can move it. */
  readonly hostEntry: string;
  /** Owns the host processes (SIGKILLed when it is disposed or the process exits); default processScope. */
  readonly scope?: ResourceScope;
  /**
   * The sandbox (sandbox.ts) and the --agent-path folders the module was
   * resolved in: the module must resolve inside them after symbolic links.
   * Absent: the host runs with the evaluator's rights and environment
   * (isolation `none`, for tests of the host itself).
   */
  readonly sandbox?: { readonly options: AgentSandboxOptions; readonly agentPaths: readonly string[] };
}

export const DEFAULT_LOAD_TIMEOUT_MS = 60_000;

/** How long a host whose channel closed may take to exit on its own before it is killed for it. */
const CLOSED_CHANNEL_GRACE_MS = 2000;

/** The host's protocol channel: its descriptor 3, a pipe (module-host-main.ts reads the same number). */
export const HOST_CHANNEL_FD = 3;

/** tsx's loader, resolved from this package (never from the current directory). */
function tsxLoaderUrl(): string {
  return pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
}

/** A request without its sequence number (distributes over the union). */
type WithoutSeq<T> = T extends unknown ? Omit<T, 'seq'> : never;
type RequestBody = WithoutSeq<HostRequest>;

interface Pending {
  readonly seq: number;
  resolve(reply: HostReply): void;
  reject(error: AgentError): void;
  /** The error for this request if the process exits while it waits. */
  onExit(exit: ChildExit, tail: StderrTail): AgentError;
}

/** One module host process. Not for concurrent use: one request at a time. */
export class ModuleAgentHost {
  private readonly tail = new StderrTail();
  private readonly exited: Promise<ChildExit>;
  private seq = 0;
  private pending: Pending | undefined;
  private failure: AgentError | undefined;
  private readonly reader = new BoundedLineReader(LINE_PROTOCOL_MAX_LINE_BYTES);
  private readonly channel: Duplex;

  private constructor(
    private readonly child: ChildProcess,
    readonly file: string,
    readonly exportName: string,
    private readonly opts: ModuleHostOptions,
  ) {
    this.exited = trackChild(child, this.tail, undefined, opts.scope);
    this.channel = child.stdio[HOST_CHANNEL_FD] as Duplex;
    unrefChild(child);
    (this.channel as { unref?: () => void }).unref?.();
    this.channel.on('error', () => undefined);
    this.channel.on('data', (chunk: Buffer) => this.onData(chunk));
    // Agent code may close the channel: the episode fails, the evaluator goes on. A host that exits
    // closes it too; its exit, which comes soon after, then says why.
    this.channel.on('end', () => {
      const timer = setTimeout(() => {
        if (isRunning(child)) this.onViolation(new AgentError('model_error', 'the agent host closed its protocol channel'));
      }, CLOSED_CHANNEL_GRACE_MS);
      timer.unref();
    });
    child.stdin?.end();
    void this.exited.then((exit) => {
      const pending = this.pending;
      this.pending = undefined;
      if (pending) {
        this.failure ??= pending.onExit(exit, this.tail);
        pending.reject(this.failure);
      }
      this.failure ??= new AgentError('model_error', describeExit(exit, this.tail));
    });
  }

  /** Forks a host and imports the module; AgentError (model_error or timeout) if that fails. */
  static async start(file: string, exportName: string, opts: ModuleHostOptions, plan?: SandboxPlan): Promise<ModuleAgentHost> {
    const label = opts.label ?? file;
    const nodeArgs = ['--import', tsxLoaderUrl(), opts.hostEntry];
    let child: ChildProcess;
    if (plan === undefined) {
      const env = process.versions.electron === undefined ? process.env : { ...process.env, ELECTRON_RUN_AS_NODE: '1' };
      child = spawn(process.execPath, nodeArgs, { stdio: ['pipe', 'pipe', 'pipe', 'pipe'], env, windowsHide: true });
    } else {
      // Sandboxed: the launcher starts bwrap (or prlimit), which ends by starting this Node with the host entry.
      const launch = sandboxLaunch(plan, process.execPath, nodeArgs, 1);
      // In the app, process.execPath is Electron: with the reduced environment it must still start as Node.
      if (process.versions.electron !== undefined) launch.env.ELECTRON_RUN_AS_NODE = '1';
      child = spawnLaunch(launch, plan.options, 1);
    }
    const host = new ModuleAgentHost(child, file, exportName, opts);
    const loadMs = opts.loadTimeoutMs ?? DEFAULT_LOAD_TIMEOUT_MS;
    let reply: HostReply;
    try {
      reply = await host.request({ type: 'load', file, exportName }, loadMs, {
        timeout: () => new AgentError('timeout', `loading agent module ${label} took longer than ${loadMs} ms`),
        exit: (exit, tail) => new AgentError('model_error', `cannot import agent module ${label}: ${describeExit(exit, tail)}`),
      });
    } catch (error) {
      await host.kill();
      throw error;
    }
    if (reply.type === 'loaded') return host;
    throw await host.fatal(host.loadError(reply, label));
  }

  /** The host's process id (for diagnostics and tests). */
  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Running, never failed and idle: it can take the next episode. */
  get usable(): boolean {
    return this.failure === undefined && this.pending === undefined && isRunning(this.child);
  }

  /** Calls the factory in the host; AgentError model_error/timeout on failure (the host is then dead). */
  async newAgent(): Promise<void> {
    const ms = this.opts.actTimeoutMs;
    const reply = await this.request({ type: 'new_agent' }, ms, {
      timeout: () => new AgentError('timeout', `agent factory ${this.exportName} took longer than ${ms} ms`),
      exit: (exit, tail) => new AgentError('model_error', describeExit(exit, tail)),
    });
    if (reply.type === 'agent_ready') return;
    throw await this.fatal(this.replyError(reply));
  }

  /** One act; resolves to the action set shape, or AgentError (then the host is dead). */
  async act(observation: Observation): Promise<ActionSet> {
    return this.answer(await this.actRequest({ type: 'act', observation }));
  }

  /**
   * One act on a view delta: resolves to undefined once `moves` hold the
   * answer's direction codes, or to the action set when the host sent it
   * whole (it did not reduce to digits); AgentError as for act.
   */
  async actOnDelta(delta: ViewDelta, moves: Uint8Array): Promise<ActionSet | undefined> {
    const reply = await this.actRequest({ type: 'view', ...delta });
    if (reply.type !== 'moves') return this.answer(reply);
    if (decodeMoves(reply.moves, moves)) return undefined;
    throw await this.fatal(this.violation());
  }

  private actRequest(body: RequestBody): Promise<HostReply> {
    const ms = this.opts.actTimeoutMs;
    return this.request(body, ms, {
      timeout: () => new AgentError('timeout', `act took longer than ${ms} ms`),
      exit: (exit, tail) => new AgentError('model_error', describeExit(exit, tail)),
    });
  }

  private async answer(reply: HostReply): Promise<ActionSet> {
    if (reply.type === 'actions') {
      // The host checks the shape too, but agent code shares its process.
      if (isStringRecord(reply.actions)) return reply.actions as ActionSet;
      throw await this.fatal(new AgentError('invalid_output', 'act returned a value that is not a plain object mapping person IDs to action strings'));
    }
    throw await this.fatal(this.replyError(reply));
  }

  /** Ends the episode's agent in the host (no reply); the host stays usable. */
  endAgent(): void {
    if (!this.usable) return;
    this.write({ type: 'end_agent', seq: ++this.seq } satisfies HostRequest);
  }

  /** Kills the host (SIGKILL) and waits until it is reaped. Idempotent. */
  async kill(): Promise<void> {
    this.failure ??= new AgentError('model_error', 'the agent host was closed');
    await killAndReap(this.child, this.exited);
  }

  private request(
    body: RequestBody,
    timeoutMs: number,
    errors: { timeout(): AgentError; exit(exit: ChildExit, tail: StderrTail): AgentError },
  ): Promise<HostReply> {
    if (this.failure) return Promise.reject(this.failure);
    if (this.pending) return Promise.reject(new Error('ModuleAgentHost: a request is already pending'));
    const seq = ++this.seq;
    return new Promise<HostReply>((resolve, reject) => {
      const timer = setTimeout(() => {
        if (this.pending?.seq !== seq) return;
        // The deadline has passed: kill first, answer once the child is gone.
        this.pending = undefined;
        this.failure = errors.timeout();
        void killAndReap(this.child, this.exited).then(() => reject(this.failure));
      }, timeoutMs);
      const settle = (): void => {
        clearTimeout(timer);
        this.pending = undefined;
      };
      this.pending = {
        seq,
        resolve: (reply) => {
          settle();
          resolve(reply);
        },
        reject: (error) => {
          settle();
          reject(error);
        },
        onExit: (exit, tail) => errors.exit(exit, tail),
      };
      this.write({ ...body, seq } as HostRequest);
    });
  }

  /** One request, one line; a write to a closed channel fails through the exit handler. */
  private write(request: HostRequest): void {
    if (!this.channel.destroyed) this.channel.write(JSON.stringify(request) + '\n');
  }

  private onData(chunk: Buffer): void {
    // A failed host is being killed; whatever it still says does not count.
    if (this.failure) return;
    const lines = this.reader.push(chunk);
    if (lines === undefined) {
      this.onViolation(new AgentError('invalid_output', `the agent host wrote a line longer than ${LINE_PROTOCOL_MAX_LINE_BYTES} bytes on its protocol channel`));
      return;
    }
    for (const line of lines) {
      if (this.failure) return;
      this.onMessage(line);
    }
  }

  private onMessage(line: Buffer): void {
    let message: unknown;
    try {
      message = parseStrictJson(line.toString('utf8'));
    } catch {
      message = undefined;
    }
    const reply = parseHostReply(message);
    const pending = this.pending;
    if (reply === undefined || pending === undefined || reply.seq !== pending.seq) {
      // Agent code shares the host and can write to the channel; anything
      // that is not the awaited reply ends the host.
      this.onViolation(this.violation());
      return;
    }
    pending.resolve(reply);
  }

  /** Ends the host for a broken channel; the exit handler then rejects the pending request with this failure. */
  private onViolation(error: AgentError): void {
    if (this.failure) return;
    this.failure = error;
    this.reader.clear();
    void killAndReap(this.child, this.exited);
  }

  private violation(): AgentError {
    return new AgentError('model_error', 'the agent host sent an unexpected message on its protocol channel (agent code must not write to it)');
  }

  private replyError(reply: HostReply): AgentError {
    if (reply.type !== 'error') return this.violation();
    switch (reply.stage) {
      case 'output':
        return new AgentError('invalid_output', reply.message);
      case 'import':
      case 'export':
      case 'factory':
      case 'act':
        // An allocation that failed under the memory cap surfaces as an exception (a Buffer's RangeError).
        return new AgentError('model_error', withMemoryCapNote(reply.message, this.opts.sandbox?.options));
    }
  }

  private loadError(reply: HostReply, label: string): AgentError {
    if (reply.type !== 'error') return this.violation();
    switch (reply.stage) {
      case 'import':
        return new AgentError('model_error', `cannot import agent module ${label}: ${reply.message}`);
      case 'export':
        return new AgentError('model_error', `agent factory ${this.exportName} in module ${label} ${reply.message}`);
      case 'factory':
      case 'act':
      case 'output':
        return this.violation();
    }
  }

  /** Records a failure, kills the host and returns the error to throw. */
  private async fatal(error: AgentError): Promise<AgentError> {
    this.failure ??= error;
    await killAndReap(this.child, this.exited);
    return error;
  }
}
