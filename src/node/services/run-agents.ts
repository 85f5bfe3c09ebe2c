/**
 * An app run's agent choice (the contract's AgentChoice) as the runner
 * takes it: its label in lists, and its AgentSpec. Errors name the input
 * field (`agent.id`, `agent.module`, ...), never a command-line flag.
 */

import { fieldError, isEmberError } from '../../core/errors.js';
import { isBaselineId } from '../../core/baselines/registry.js';
import type { AgentChoice } from '../../shared/api/contract.js';
import { parseAgentCommand, parseAgentSpec, type AgentSpec } from '../agents/spec.js';

export function agentLabel(agent: AgentChoice): string {
  switch (agent.kind) {
    case 'builtin':
      return `builtin:${agent.id}`;
    case 'module':
      return `module:${agent.module}:${agent.exportName}`;
    case 'command':
      return `command:${agent.command}`;
    case 'openai-chat':
      return `openai-chat:${typeof agent.config.model === 'string' ? agent.config.model : '?'}`;
  }
}

/** The runner's AgentSpec of a contract agent choice; errors name the input field (`agent.id`), not a flag. */
export function agentSpecOf(agent: AgentChoice): { spec: AgentSpec; agentPaths: readonly string[] } {
  const rename = (field: string, run: () => AgentSpec): AgentSpec => {
    try {
      return run();
    } catch (error) {
      if (isEmberError(error) && error.kind === 'usage') throw fieldError(field, error.message.replace(/--agent(-command)?/g, field));
      throw error;
    }
  };
  switch (agent.kind) {
    case 'builtin':
      if (!isBaselineId(agent.id)) throw fieldError('agent.id', `unknown builtin agent ${JSON.stringify(agent.id)}`);
      return { spec: { kind: 'builtin', id: agent.id }, agentPaths: [] };
    case 'module':
      return { spec: rename('agent.module', () => parseAgentSpec(`${agent.module}:${agent.exportName}`)), agentPaths: agent.agentPaths };
    case 'command':
      return { spec: rename('agent.command', () => parseAgentCommand(agent.command)), agentPaths: agent.agentPaths };
    case 'openai-chat':
      // Its spec names the trial's transcript folder and live counter: llmSpecOf (llm-runs.ts) builds it per launch.
      throw new Error('agentSpecOf: an openai-chat agent is opened with llmSpecOf');
  }
}

export function renameField<T>(from: string, to: string, run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (isEmberError(error) && error.field === from) throw fieldError(to, error.message.startsWith(`${from}: `) ? error.message.slice(from.length + 2) : error.message);
    throw error;
  }
}
