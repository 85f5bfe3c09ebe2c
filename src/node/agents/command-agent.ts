/**
 * The line-protocol host: agents in any language. Each episode spawns the
 * program fresh (no shell, cwd and environment unchanged), writes one
 * canonical-JSON observation per line to its stdin and reads one JSON action
 * set per line from its stdout. stderr is drained (last 4 KiB kept for error
 * messages). Any failure kills the process.
 */

import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import { AgentError } from '../../core/errors.js';
import type { ActionSet } from '../../core/sim/actions.js';
import type { Agent } from '../../core/sim/agent.js';
import { ACT_ON_VIEW, type MoveView, type ViewAgent } from '../../core/sim/move-view.js';
import type { Observation } from '../../core/sim/observation.js';
import {
  decodeActionLine,
  decodeOptIn,
  encodeObservationLine,
  isStringRecord,
  LINE_PROTOCOL_MAX_LINE_BYTES,
  NOT_AN_ACTION_SET,
} from '../../shared/agent-protocol.js';
import { LineViewCodec } from './line-view.js';
import { BoundedLineReader } from './line-reader.js';
import { describeExit, exitOrKill, isRunning, killAndReap, StderrTail, trackChild, unrefChild, type ChildExit } from './child-lifecycle.js';
import type { AgentSession } from './spec.js';
import type { ResourceScope } from '../lifetime.js';
import { commandSandboxPlan, type SandboxPlan } from './sandbox.js';
import { sandboxLaunch, spawnLaunch } from './sandbox-launch.js';
import type { AgentSandboxOptions } from './sandbox-options.js';

export interface CommandAgentOptions {
  /** Deadline of one act (observation written -> action line read), in ms. */
  readonly actTimeoutMs: number;
  /** How long a closing agent may take to exit after its stdin closes; default 500 ms. */
  readonly closeGraceMs?: number;
  /** Owns the agent processes (SIGKILLed when it is disposed or the process exits); default processScope. */
  readonly scope?: ResourceScope;
  /**
   * The sandbox (sandbox.ts) and the --agent-path folders the program may
   * read. Absent: the program runs with the evaluator's rights and
   * environment (isolation `none`, for tests of the host itself).
   */
  readonly sandbox?: { readonly options: AgentSandboxOptions; readonly agentPaths: readonly string[] };
}

export const DEFAULT_CLOSE_GRACE_MS = 500;

/** Why a line-protocol agent that wrote nothing may have timed out. */
export const STUCK_OUTPUT_HINT = 'the agent wrote nothing; if it did answer, the line may be stuck in its output buffer (flush stdout after each line)';

function isExecutableFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The program's absolute path, found now so a typo fails before any episode:
 * a name with a path separator is resolved against the current directory;
 * a bare name is searched on PATH (empty PATH entries, which would mean the
 * current directory, are skipped). On Windows PATHEXT is tried too.
 */
export function resolveProgram(program: string): string | undefined {
  const windows = process.platform === 'win32';
  const exts = windows ? ['', ...(process.env.PATHEXT ?? '.COM;.EXE;.BAT;.CMD').split(';').filter((e) => e !== '')] : [''];
  const hasSeparator = program.includes('/') || (windows && program.includes('\\'));
  const dirs = hasSeparator || isAbsolute(program) ? [''] : (process.env.PATH ?? '').split(delimiter).filter((d) => d !== '');
  for (const dir of dirs) {
    for (const ext of exts) {
      const candidate = dir === '' ? resolve(program + ext) : join(dir, program + ext);
      if (isExecutableFile(candidate)) return candidate;
    }
  }
  return undefined;
}

/** The line as UTF-8 text, or undefined when it is not UTF-8. */
function utf8(line: Buffer): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(line);
  } catch {
    return undefined;
  }
}

type Waiter = { resolve(line: Buffer): void; reject(error: AgentError): void };

/**
 * One episode's agent process. The runner drives it through ACT_ON_VIEW
 * (line-view.ts: the same lines, written and read without objects, and
 * delta lines once the agent opted in); `act(observation)` stays for other
 * callers and always writes full observations.
 */
export class LineProtocolAgent implements ViewAgent {
  private readonly tail = new StderrTail();
  private readonly exited: Promise<ChildExit>;
  private readonly reader = new BoundedLineReader(LINE_PROTOCOL_MAX_LINE_BYTES);
  private lines: Buffer[] = [];
  private waiter: Waiter | undefined;
  private failure: AgentError | undefined;
  private closed = false;
  private readonly codec = new LineViewCodec();
  /** Whether the agent opted in to delta observations in its first answer. */
  private deltas = false;

  private constructor(
    private readonly child: ChildProcess,
    private readonly label: string,
    private readonly opts: CommandAgentOptions,
  ) {
    this.exited = trackChild(child, this.tail, (chunk) => this.onStdout(chunk), opts.scope);
    unrefChild(child);
    void this.exited.then((exit) => {
      this.failure ??= new AgentError('model_error', describeExit(exit, this.tail));
      this.waiter?.reject(this.failure);
      this.waiter = undefined;
    });
  }

  /** Spawns the program; AgentError model_error if it cannot start. */
  static async spawn(program: string, args: readonly string[], label: string, opts: CommandAgentOptions, plan?: SandboxPlan): Promise<LineProtocolAgent> {
    const child =
      plan === undefined
        ? spawn(program, args, { stdio: ['pipe', 'pipe', 'pipe'], shell: false, windowsHide: true })
        : spawnLaunch(sandboxLaunch(plan, program, args), plan.options);
    const agent = new LineProtocolAgent(child, label, opts);
    await new Promise<void>((started, failed) => {
      child.once('spawn', () => started());
      child.once('error', (error) => failed(new AgentError('model_error', `cannot start agent command ${label}: ${error.message}`)));
    });
    return agent;
  }

  /** The process id (for diagnostics and tests). */
  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Resolves when the process has exited and been reaped. */
  whenExited(): Promise<ChildExit> {
    return this.exited;
  }

  async act(observation: Observation): Promise<ActionSet> {
    return this.decode(await this.exchange(encodeObservationLine(observation)));
  }

  /**
   * One step on the fast path: resolves to undefined once `moves` hold the
   * answer (a line naming exactly the active persons with valid actions),
   * else to the decoded action set for the runner's action check. The
   * answer to the step-0 observation may opt in to delta observations
   * (agent-protocol.ts decodeOptIn).
   */
  async [ACT_ON_VIEW](view: MoveView, moves: Uint8Array): Promise<ActionSet | undefined> {
    const codec = this.codec;
    codec.advance(view);
    const text = this.deltas ? codec.deltaLine(view) : codec.fullLine(view);
    codec.remember(view);
    const line = await this.exchange(text);
    if (codec.scanMoves(line, view, moves)) return undefined;
    const optIn = view.step === 0 ? decodeOptIn(utf8(line) ?? '') : undefined;
    if (optIn === undefined) return this.decode(line);
    if (!isStringRecord(optIn.actions)) throw await this.fatal(new AgentError('invalid_output', NOT_AN_ACTION_SET));
    this.deltas = true;
    return optIn.actions as ActionSet;
  }

  private async decode(line: Buffer): Promise<ActionSet> {
    const text = utf8(line);
    if (text === undefined) throw await this.fatal(new AgentError('invalid_output', 'agent output is not UTF-8'));
    const decoded = decodeActionLine(text);
    if (!decoded.ok) throw await this.fatal(new AgentError('invalid_output', decoded.reason));
    return decoded.actions as ActionSet;
  }

  /** Writes one observation line and waits for the answer line. */
  private async exchange(observationLine: string): Promise<Buffer> {
    if (this.closed) throw new AgentError('model_error', 'act called on a closed agent');
    if (this.failure) throw this.failure;
    if (this.waiter) throw new AgentError('model_error', 'act called while the previous act is still running');
    if (this.lines.length > 0 || this.reader.partialBytes > 0) {
      throw await this.fatal(new AgentError('invalid_output', 'agent wrote output before it received the observation (one line per observation)'));
    }
    const ms = this.opts.actTimeoutMs;
    const line = await new Promise<Buffer>((resolveLine, rejectLine) => {
      const timer = setTimeout(() => {
        if (this.waiter !== waiter) return;
        this.waiter = undefined;
        // The deadline has passed: kill first, answer once the process is gone.
        const silent = this.reader.partialBytes === 0 && this.lines.length === 0;
        this.failure ??= new AgentError('timeout', `act took longer than ${ms} ms` + (silent ? `; ${STUCK_OUTPUT_HINT}` : ''));
        void killAndReap(this.child, this.exited).then(() => rejectLine(this.failure));
      }, ms);
      const waiter: Waiter = {
        resolve: (value) => {
          clearTimeout(timer);
          resolveLine(value);
        },
        reject: (error) => {
          clearTimeout(timer);
          rejectLine(error);
        },
      };
      this.waiter = waiter;
      // EPIPE and friends surface as the process's exit (handled above).
      this.child.stdin?.write(observationLine);
    });
    return line;
  }

  /** Ends the episode: closes stdin, waits a short grace, then kills. Resolves once the process is gone. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.failure ??= new AgentError('model_error', 'the agent was closed');
    this.waiter?.reject(this.failure);
    this.waiter = undefined;
    if (isRunning(this.child)) this.child.stdin?.end();
    await exitOrKill(this.child, this.exited, this.opts.closeGraceMs ?? DEFAULT_CLOSE_GRACE_MS);
  }

  /** Kills at once (session close). */
  async kill(): Promise<void> {
    this.closed = true;
    this.failure ??= new AgentError('model_error', 'the agent was closed');
    await killAndReap(this.child, this.exited);
  }

  private onStdout(chunk: Buffer): void {
    if (this.failure) return;
    const lines = this.reader.push(chunk);
    // The line limit applies whether or not an act is waiting.
    if (lines === undefined) {
      void this.fatal(new AgentError('invalid_output', `agent output line is longer than ${LINE_PROTOCOL_MAX_LINE_BYTES} bytes`));
      return;
    }
    this.lines.push(...lines);
    if (this.waiter && this.lines.length > 0) {
      if (this.lines.length > 1 || this.reader.partialBytes > 0) {
        void this.fatal(new AgentError('invalid_output', 'agent wrote more than one line for one observation'));
        return;
      }
      const waiter = this.waiter;
      this.waiter = undefined;
      waiter.resolve(this.lines.shift()!);
    }
  }

  /** Records a failure, fails a waiting act, kills the process; returns the error to throw. */
  private async fatal(error: AgentError): Promise<AgentError> {
    this.failure ??= error;
    this.reader.clear();
    this.lines = [];
    const waiter = this.waiter;
    this.waiter = undefined;
    // Kill first, answer once the process is gone.
    await killAndReap(this.child, this.exited);
    waiter?.reject(this.failure);
    return this.failure;
  }
}

/**
 * Opens a line-protocol agent. The program is resolved now (on PATH for a
 * bare name) so a missing or non-executable program is an AgentError
 * model_error before any episode; each factory call spawns it fresh.
 */
export async function openCommandAgentFactory(argv: readonly string[], opts: CommandAgentOptions): Promise<AgentSession> {
  if (!Number.isSafeInteger(opts.actTimeoutMs) || opts.actTimeoutMs < 1) {
    throw new RangeError(`actTimeoutMs must be a positive integer number of ms, got ${opts.actTimeoutMs}`);
  }
  const [program, ...args] = argv;
  if (program === undefined || program === '') throw new AgentError('model_error', 'cannot start agent command: empty command');
  const resolved = resolveProgram(program);
  if (resolved === undefined) {
    throw new AgentError('model_error', `cannot start agent command ${program}: not found or not executable${program.includes('/') ? '' : ' on PATH'}`);
  }
  const plan = opts.sandbox === undefined ? undefined : commandSandboxPlan(resolved, args, opts.sandbox.options, opts.sandbox.agentPaths);
  const agents = new Set<LineProtocolAgent>();
  let closed = false;
  return {
    isolation: plan?.isolation ?? 'none',
    factory: async (): Promise<Agent> => {
      if (closed) throw new AgentError('model_error', 'the agent session is closed');
      const agent = await LineProtocolAgent.spawn(resolved, args, program, opts, plan);
      agents.add(agent);
      void agent.whenExited().then(() => agents.delete(agent));
      return agent;
    },
    async close(): Promise<void> {
      closed = true;
      await Promise.all([...agents].map((agent) => agent.kill()));
    },
  };
}
