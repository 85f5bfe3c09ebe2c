/**
 * The parent side of the JS/TS module host: agent code never runs in the
 * evaluator's process. One host process (module-host.ts, running
 * module-host-main) imports the module once and serves episodes one after
 * another; after any failure (timeout, crash, error) the host is killed and
 * the next episode gets a fresh one.
 */

import { AgentError } from '../../core/errors.js';
import type { ActionSet } from '../../core/sim/actions.js';
import type { Agent } from '../../core/sim/agent.js';
import { ACT_ON_VIEW, type MoveView, type ViewAgent } from '../../core/sim/move-view.js';
import type { Observation } from '../../core/sim/observation.js';
import { ViewDeltaWriter } from './view-delta.js';
import { ModuleAgentHost, type ModuleHostOptions } from './module-host.js';
import type { AgentSession } from './spec.js';
import { containedAgentModule, moduleSandboxPlan, type SandboxPlan } from './sandbox.js';

export { DEFAULT_LOAD_TIMEOUT_MS, ModuleAgentHost, type ModuleHostOptions } from './module-host.js';

/**
 * An episode's agent, bound to one host until close(). The runner drives it
 * through ACT_ON_VIEW: each step crosses the channel as a delta and comes
 * back as digits (view-delta.ts); `act(observation)` stays for other callers.
 */
export class ModuleAgent implements ViewAgent {
  private state: 'ready' | 'acting' | 'failed' | 'closed' = 'ready';
  private readonly deltas = new ViewDeltaWriter();

  constructor(
    private readonly host: ModuleAgentHost,
    private readonly release: (host: ModuleAgentHost, healthy: boolean) => void,
  ) {}

  /** The host process id (for diagnostics and tests). */
  get pid(): number | undefined {
    return this.host.pid;
  }

  act(observation: Observation): Promise<ActionSet> {
    return this.guarded(() => this.host.act(observation));
  }

  [ACT_ON_VIEW](view: MoveView, moves: Uint8Array): Promise<ActionSet | undefined> {
    return this.guarded(() => this.host.actOnDelta(this.deltas.next(view), moves));
  }

  /** One act at a time; any failure ends the host. */
  private async guarded<T>(call: () => Promise<T>): Promise<T> {
    if (this.state !== 'ready') {
      throw new AgentError('model_error', this.state === 'acting' ? 'act called while the previous act is still running' : `act called on a ${this.state} agent`);
    }
    this.state = 'acting';
    try {
      const answer = await call();
      this.state = 'ready';
      return answer;
    } catch (error) {
      this.state = 'failed';
      await this.host.kill();
      throw error;
    }
  }

  /** Ends the episode: a healthy host goes back to the session for the next episode. */
  async close(): Promise<void> {
    if (this.state === 'closed') return;
    const healthy = this.state === 'ready' && this.host.usable;
    this.state = 'closed';
    if (healthy) this.host.endAgent();
    this.release(this.host, healthy);
  }
}

function checkTimeout(name: string, ms: number | undefined): void {
  if (ms !== undefined && (!Number.isSafeInteger(ms) || ms < 1)) throw new RangeError(`${name} must be a positive integer number of ms, got ${ms}`);
}

/**
 * Opens a module agent: starts one host and imports the module now, so an
 * import or export failure surfaces before any episode (AgentError,
 * model_error). The factory then calls the module's factory once per episode
 * in an idle host (starting a fresh one when none is idle).
 */
export async function openModuleAgentFactory(file: string, exportName: string, opts: ModuleHostOptions): Promise<AgentSession> {
  checkTimeout('actTimeoutMs', opts.actTimeoutMs);
  checkTimeout('loadTimeoutMs', opts.loadTimeoutMs);
  let plan: SandboxPlan | undefined;
  if (opts.sandbox !== undefined) {
    const contained = containedAgentModule(file, opts.sandbox.agentPaths, opts.label ?? file);
    file = contained.file;
    plan = moduleSandboxPlan(opts.hostEntry, contained.folders, opts.sandbox.options);
  }
  // RLIMIT_CPU counts a process's whole life: with a CPU cap every episode gets a fresh host.
  const reuseHosts = opts.sandbox?.options.cpuSeconds === undefined;
  const first = await ModuleAgentHost.start(file, exportName, opts, plan);
  const hosts = new Set<ModuleAgentHost>([first]);
  const idle: ModuleAgentHost[] = [first];
  let closed = false;

  const retire = (host: ModuleAgentHost): Promise<void> => {
    hosts.delete(host);
    return host.kill();
  };
  const release = (host: ModuleAgentHost, healthy: boolean): void => {
    if (healthy && !closed && reuseHosts) idle.push(host);
    else void retire(host);
  };
  const sessionClosed = (): AgentError => new AgentError('model_error', 'the agent session is closed');

  const factory = async (): Promise<Agent> => {
    if (closed) throw sessionClosed();
    let host = idle.pop();
    while (host !== undefined && !host.usable) {
      void retire(host);
      host = idle.pop();
    }
    if (host === undefined) {
      host = await ModuleAgentHost.start(file, exportName, opts, plan);
      hosts.add(host);
      if (closed) {
        await retire(host);
        throw sessionClosed();
      }
    }
    try {
      await host.newAgent();
    } catch (error) {
      await retire(host);
      throw error;
    }
    return new ModuleAgent(host, release);
  };

  return {
    factory,
    isolation: plan?.isolation ?? 'none',
    async close(): Promise<void> {
      closed = true;
      idle.length = 0;
      await Promise.all([...hosts].map((host) => retire(host)));
    },
  };
}
