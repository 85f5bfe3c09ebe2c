/**
 * One entry point from an agent specification to a running agent session.
 * The CLI (and the app) validate inputs first, then open the session, run
 * episodes with `session.factory` (closing each agent at episode end) and
 * finally close the session.
 */

import { statSync } from 'node:fs';
import { fieldError } from '../../core/errors.js';
import type { EntryPoints } from '../entry-points.js';
import type { ResourceScope } from '../lifetime.js';
import { DEFAULT_AGENT_SANDBOX_OPTIONS, type AgentSandboxOptions } from './sandbox-options.js';
import { builtinAgentFactory, resolveAgentModule, type AgentSession, type AgentSpec } from './spec.js';

/** Default deadline of one act, in ms (also of one factory call in the module host). */
export const DEFAULT_ACT_TIMEOUT_MS = 30_000;
/** The longest deadline accepted: one hour. */
export const MAX_ACT_TIMEOUT_MS = 3_600_000;

export interface OpenAgentOptions {
  /** The --agent-path directories, in order, as given on the command line. */
  readonly agentPaths: readonly string[];
  /** Deadline of one act in ms, 1..{@link MAX_ACT_TIMEOUT_MS}. */
  readonly actTimeoutMs: number;
  /** Where the module agent host starts (only `moduleHost` is used here). */
  readonly entryPoints: Pick<EntryPoints, 'moduleHost'>;
  /** Owns the agent processes; default processScope. */
  readonly scope?: ResourceScope;
  /** The sandbox of module and command agents (sandbox.ts); default {@link DEFAULT_AGENT_SANDBOX_OPTIONS}. */
  readonly sandbox?: AgentSandboxOptions;
}

/** UsageError (field actTimeoutMs) unless `ms` is an integer in 1..3_600_000. */
export function checkActTimeout(ms: number): void {
  if (!Number.isSafeInteger(ms) || ms < 1 || ms > MAX_ACT_TIMEOUT_MS) {
    throw fieldError('actTimeoutMs', `must be an integer number of milliseconds from 1 to ${MAX_ACT_TIMEOUT_MS}, not ${ms}`);
  }
}

/** UsageError (field agentPaths) for an agent path that is not an existing directory (exit 2). */
export function checkAgentPaths(agentPaths: readonly string[]): void {
  for (const dir of agentPaths) {
    let isDir = false;
    try {
      isDir = statSync(dir).isDirectory();
    } catch {
      // Missing: reported below.
    }
    if (!isDir) throw fieldError('agentPaths', `${dir} is not a directory`);
  }
}

/**
 * Opens an agent: a builtin baseline in process (pure benchmark code, no
 * host), a JS/TS module in a child process host, or a command on the line
 * protocol. Module and command problems that can be seen before an episode
 * (not found, import failure, missing export) are thrown here as AgentError
 * (exit 4); bad options as UsageError (exit 2). Each kind's host is
 * imported only when that kind is opened: a builtin run loaded the module
 * host, the line protocol and the chat adapter's HTTP client for nothing.
 */
export async function openAgent(spec: AgentSpec, opts: OpenAgentOptions): Promise<AgentSession> {
  checkActTimeout(opts.actTimeoutMs);
  checkAgentPaths(opts.agentPaths);
  switch (spec.kind) {
    case 'builtin':
      return { factory: builtinAgentFactory(spec.id), close: async () => undefined };
    case 'module': {
      const file = resolveAgentModule(spec.module, opts.agentPaths);
      const { openModuleAgentFactory } = await import('./module-agent.js');
      return openModuleAgentFactory(file, spec.exportName, {
        actTimeoutMs: opts.actTimeoutMs,
        label: spec.module,
        hostEntry: opts.entryPoints.moduleHost,
        scope: opts.scope,
        sandbox: { options: opts.sandbox ?? DEFAULT_AGENT_SANDBOX_OPTIONS, agentPaths: opts.agentPaths },
      });
    }
    case 'command': {
      const { openCommandAgentFactory } = await import('./command-agent.js');
      return openCommandAgentFactory(spec.argv, {
        actTimeoutMs: opts.actTimeoutMs,
        scope: opts.scope,
        sandbox: { options: opts.sandbox ?? DEFAULT_AGENT_SANDBOX_OPTIONS, agentPaths: opts.agentPaths },
      });
    }
    case 'llm': {
      // In process: model calls are async network waits, not agent code.
      const { openLlmSession } = await import('./openai-chat/session.js');
      return openLlmSession(spec.options);
    }
  }
}
