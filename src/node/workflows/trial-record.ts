/**
 * The operational record of one trial (scoring-v1.0.md section 12), built
 * here for every kind of agent, for the CLI (trials.ts) and the app alike:
 * the chat-completions adapter's from the transcripts of the episodes the
 * result holds (../agents/openai-chat/operational.ts); a module or command
 * agent's from the isolation level it ran at and the run's wall time
 * (../agents/local-operational.ts); a builtin policy has none.
 */

import type { IsolationLevel, OperationalRecord } from '../../core/scoring/operational.js';
import { localTrialRecord } from '../agents/local-operational.js';
import { trialOperationalRecord } from '../agents/openai-chat/operational.js';
import type { AgentSpec } from '../agents/spec.js';
import type { EvaluationRunSummary } from '../eval/runner.js';

export interface TrialRecordInput {
  readonly modelId: string;
  readonly agent: AgentSpec;
  readonly agentPaths: readonly string[];
  readonly actTimeoutMs: number;
  /** The level the agent ran at (agentIsolation). */
  readonly isolation: IsolationLevel;
  /** The run that finished the trial: its result names the episodes the record covers. */
  readonly summary: EvaluationRunSummary;
  /** Wall time of that run, in ms. */
  readonly wallMs: number;
}

/** The trial's record; null for a builtin policy, or when the result holds no episode. */
export async function trialRecordOf(input: TrialRecordInput): Promise<OperationalRecord | null> {
  const { agent, summary } = input;
  const indices = [...summary.result.episodes.map((e) => e.index), ...summary.result.failures.map((f) => f.index)];
  switch (agent.kind) {
    case 'builtin':
      return null;
    case 'llm':
      return trialOperationalRecord({ modelId: input.modelId, config: agent.options.config, transcriptDir: agent.options.transcriptDir, indices });
    case 'module':
    case 'command':
      return localTrialRecord({
        modelId: input.modelId,
        spec: agent,
        agentPaths: input.agentPaths,
        actTimeoutMs: input.actTimeoutMs,
        isolation: input.isolation,
        episodes: indices.length,
        timeouts: summary.result.failures.filter((f) => f.kind === 'timeout').length,
        wallMs: input.wallMs,
      });
  }
}
