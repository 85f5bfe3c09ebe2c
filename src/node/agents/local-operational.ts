/**
 * The operational record of a trial of a user agent that is not a language
 * model: a JS/TS module (`--agent MODULE:EXPORT`) or a command on the line
 * protocol (`--agent-command`). Such an agent has no tokens and no price,
 * but the record still carries what a score is read with: the isolation
 * level the agent ran at (evaluation.md section 8) and the evaluator's wall
 * time (scoring-v1.0.md section 11).
 *
 *   provider_id               `local` (the agent ran on this machine)
 *   inference_config_digest   SHA-256 of the canonical JSON of the agent's
 *                             configuration (localAgentConfig): its kind, the
 *                             module and export or the command's argv, and
 *                             the act deadline. No absolute path enters it,
 *                             so the same agent gives the same digest on
 *                             every machine.
 *   latency_seconds           the evaluator-measured wall time of the run that
 *                             finished the trial, to the millisecond (after a
 *                             --resume, of that last run only)
 *   input/output_tokens       0; cost and cost_unit null; retries 0
 *   timeouts                  the trial's episodes declared `timeout`
 *   isolation                 `sandboxed` or `none`
 *   limit_mechanisms          what held each per-episode cap (sandbox-limits.ts)
 */

import { isAbsolute, relative, resolve, sep } from 'node:path';
import { millisecondsAsSeconds } from '../../core/llm/cost.js';
import { buildOperationalRecord, inferenceConfigDigest, type IsolationLevel, type OperationalRecord } from '../../core/scoring/operational.js';
import { checkIsolation } from './sandbox.js';
import { limitMechanisms } from './sandbox-launch.js';
import { DEFAULT_AGENT_SANDBOX_OPTIONS, type AgentSandboxOptions } from './sandbox-options.js';
import type { AgentSpec } from './spec.js';

/** The provider ID of a local agent's record. */
export const LOCAL_PROVIDER_ID = 'local';
/** The version of the configuration object localAgentConfig builds (a change would change every digest). */
export const LOCAL_AGENT_CONFIG_VERSION = '1.0';

export type LocalAgentSpec = Extract<AgentSpec, { kind: 'module' } | { kind: 'command' }>;

export function isLocalAgent(spec: AgentSpec): spec is LocalAgentSpec {
  return spec.kind === 'module' || spec.kind === 'command';
}

/**
 * The isolation level an agent runs at: for a module or command agent the
 * sandbox probe its host uses (cached per thread; without a sandbox it says
 * so once, or refuses under --require-isolation), `in_process` for a builtin
 * or the chat adapter, which are the evaluator's own code.
 */
export function agentIsolation(spec: AgentSpec, sandbox: AgentSandboxOptions = DEFAULT_AGENT_SANDBOX_OPTIONS): IsolationLevel {
  return isLocalAgent(spec) ? checkIsolation(sandbox) : 'in_process';
}

/**
 * A command argument without the machine in it: an absolute path inside an
 * --agent-path folder becomes its path relative to that folder (with `/`),
 * any other absolute path its last component; anything else is kept.
 */
export function portableArgument(arg: string, agentPaths: readonly string[]): string {
  if (!isAbsolute(arg)) return arg;
  const path = resolve(arg);
  for (const dir of agentPaths) {
    const rel = relative(resolve(dir), path);
    if (rel !== '' && !rel.startsWith('..') && !isAbsolute(rel)) return rel.split(sep).join('/');
  }
  const parts = path.split(sep).filter((p) => p !== '');
  return parts[parts.length - 1] ?? arg;
}

/** The configuration object whose digest is the record's inference_config_digest. */
export function localAgentConfig(spec: LocalAgentSpec, agentPaths: readonly string[], actTimeoutMs: number): Record<string, string | number | string[]> {
  switch (spec.kind) {
    case 'module':
      return { agent_config_version: LOCAL_AGENT_CONFIG_VERSION, kind: 'module', module: spec.module, export: spec.exportName, act_timeout_ms: actTimeoutMs };
    case 'command':
      return {
        agent_config_version: LOCAL_AGENT_CONFIG_VERSION,
        kind: 'command',
        argv: spec.argv.map((arg) => portableArgument(arg, agentPaths)),
        act_timeout_ms: actTimeoutMs,
      };
  }
}

export interface LocalTrialRecordInput {
  readonly modelId: string;
  readonly spec: LocalAgentSpec;
  readonly agentPaths: readonly string[];
  readonly actTimeoutMs: number;
  /** agentIsolation of the spec: `sandboxed` or `none`. */
  readonly isolation: IsolationLevel;
  /** Committed episodes plus declared failures in the trial's result. */
  readonly episodes: number;
  /** Declared failures of kind `timeout`. */
  readonly timeouts: number;
  /** Evaluator-measured wall time, in milliseconds (rounded here to a whole ms). */
  readonly wallMs: number;
}

/** The trial's record, or null when its result holds no episode (a record covers at least one). */
export function localTrialRecord(input: LocalTrialRecordInput): OperationalRecord | null {
  if (input.episodes === 0) return null;
  return buildOperationalRecord({
    modelId: input.modelId,
    providerId: LOCAL_PROVIDER_ID,
    inferenceConfigDigest: inferenceConfigDigest(localAgentConfig(input.spec, input.agentPaths, input.actTimeoutMs)),
    trials: 1,
    episodes: input.episodes,
    latencySeconds: millisecondsAsSeconds(Math.max(0, Math.round(input.wallMs))),
    inputTokens: 0,
    outputTokens: 0,
    cost: null,
    retries: 0,
    timeouts: input.timeouts,
    isolation: input.isolation,
    ...(input.isolation === 'in_process' ? {} : { limitMechanisms: limitMechanisms(input.isolation === 'sandboxed') }),
  });
}
