/**
 * Opens the agent named on the command line through the agent hosts of
 * src/node/agents: builtin baselines in-process, MODULE:EXPORT in a child
 * process host, resolved only in the --agent-path directories. Kept in one
 * place so that episode run and evaluation run open agents the same way.
 */

import { openModuleAgentFactory } from '../node/agents/module-agent.js';
import { builtinAgentFactory, resolveAgentModule, type AgentSession, type AgentSpec } from '../node/agents/spec.js';

/** The per-act deadline of a module agent when --act-timeout-ms is not given. */
export const DEFAULT_ACT_TIMEOUT_MS = 30_000;

export interface AgentOptions {
  readonly agentPaths: readonly string[];
  readonly actTimeoutMs: number | undefined;
}

export async function openAgentSession(spec: AgentSpec, options: AgentOptions): Promise<AgentSession> {
  switch (spec.kind) {
    case 'builtin':
      return { factory: builtinAgentFactory(spec.id), close: async () => undefined };
    case 'module': {
      const file = resolveAgentModule(spec.module, options.agentPaths);
      return openModuleAgentFactory(file, spec.exportName, {
        actTimeoutMs: options.actTimeoutMs ?? DEFAULT_ACT_TIMEOUT_MS,
        label: spec.module,
      });
    }
    case 'command':
      // parseAgentSpec never yields a command spec; the CLI has no --agent-command.
      throw new Error('agent commands are not a --agent value');
  }
}
