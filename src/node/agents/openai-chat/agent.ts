/**
 * The agent of `builtin:openai-chat` for one episode: renders each
 * observation as a prompt, asks the model (through the response cache when
 * one is configured), parses the answer strictly and keeps the transcript.
 *
 * direct mode: one call per step; the answer is the step's action set.
 * planner mode: one call at step 0 and then every planner_interval steps
 * (and at once when an assigned exit became unreachable); the answer
 * assigns exits, the path follower (core/llm/follower.ts) makes the moves.
 */

import { AgentError, EndpointError, ModelOutputError, type FailureKind } from '../../../core/errors.js';
import { parseDirectAnswer, parsePlannerAnswer } from '../../../core/llm/answer.js';
import { completionRequest } from '../../../core/llm/completion.js';
import { NO_USAGE, addUsage, type UsageTotals } from '../../../core/llm/cost.js';
import type { AgentConfig } from '../../../core/llm/config.js';
import { PathFollower } from '../../../core/llm/follower.js';
import { promptMessages, type ChatMessage } from '../../../core/llm/prompt.js';
import type { ActionSet } from '../../../core/sim/actions.js';
import type { Agent } from '../../../core/sim/agent.js';
import type { Observation } from '../../../core/sim/observation.js';
import { gridFromMap, type Grid } from '../../../core/world/grid.js';
import type { ResponseCache } from './cache.js';
import { CallError, callChat, scrub, type CallPolicy, type EndpointProblem } from './client.js';
import { addLiveUsage } from './live-usage.js';
import type { ConnectionSlots } from './slots.js';
import { summaryOf, writeTranscript, type TranscriptCall } from './transcript.js';

/** What every episode of a session shares. */
export interface LlmContext {
  readonly config: AgentConfig;
  readonly policy: CallPolicy;
  readonly slots: ConnectionSlots;
  readonly cache: ResponseCache | null;
  readonly transcriptDir: string;
  readonly systemPrompt: string;
  /** Aborted when the session closes: calls and backoffs in flight stop. */
  readonly signal: AbortSignal;
  /** The run's shared live counter (live-usage.ts), or null. */
  readonly liveUsage: SharedArrayBuffer | null;
  /** Told the usage of every finished episode (the live counter). */
  readonly onEpisodeUsage: (usage: UsageTotals) => void;
}

/** What happened and what to do, for a run stopped because the endpoint cannot serve it. */
export function endpointAdvice(problem: EndpointProblem, config: AgentConfig): string {
  switch (problem) {
    case 'credentials':
      return config.api_key_env === null
        ? `the endpoint wants an API key and the configuration sends none: set api_key_env to the name of the environment variable that holds the key`
        : `the endpoint refused the API key: check the key in the environment variable ${config.api_key_env} (api_key_env) and that it is valid for ${config.base_url}`;
    case 'unreachable':
      return `no server answers at ${config.base_url}: check base_url (host, port, /v1) and that the server is running`;
  }
}

interface Answer {
  readonly text: string;
  readonly call: Omit<TranscriptCall, 'status' | 'error'>;
}

export class LlmAgent implements Agent {
  private readonly calls: TranscriptCall[] = [];
  private usage: UsageTotals = NO_USAGE;
  private failure: FailureKind | null = null;
  private grid: Grid | undefined;
  private follower: PathFollower | undefined;
  private targets: Map<string, number> | undefined;
  private plannedAt = -1;
  /** Persons whose assigned exit was already unreachable when the current plan was made. */
  private hopeless: ReadonlySet<string> = new Set();
  private closed = false;

  constructor(
    private readonly ctx: LlmContext,
    private readonly episode: number | null,
  ) {}

  async act(observation: Observation): Promise<ActionSet> {
    try {
      return this.ctx.config.inference.mode === 'direct' ? await this.direct(observation) : await this.planner(observation);
    } catch (error) {
      this.failure = error instanceof AgentError ? error.failure : 'model_error';
      throw error;
    }
  }

  private async direct(observation: Observation): Promise<ActionSet> {
    this.grid ??= gridFromMap(observation.map);
    const grid = this.grid;
    const answer = await this.ask(observation, grid);
    return this.judge(answer, () => parseDirectAnswer(answer.text, observation, grid));
  }

  private async planner(observation: Observation): Promise<ActionSet> {
    this.follower ??= new PathFollower(observation.map);
    const follower = this.follower;
    const interval = this.ctx.config.inference.planner_interval ?? 1;
    let replanned = false;
    if (this.targets === undefined || observation.step - this.plannedAt >= interval) {
      await this.plan(observation, follower);
      replanned = true;
    }
    let step = follower.step(observation, this.targets!);
    // Ask again early only when someone LOST their exit since the plan; a
    // person who could not reach the assigned exit already does not make a call per step.
    if (!replanned && step.unreachable.some((id) => !this.hopeless.has(id))) {
      await this.plan(observation, follower);
      replanned = true;
      step = follower.step(observation, this.targets!);
    }
    if (replanned) this.hopeless = new Set(step.unreachable);
    return step.actions;
  }

  private async plan(observation: Observation, follower: PathFollower): Promise<void> {
    const answer = await this.ask(observation, follower.grid);
    this.targets = this.judge(answer, () => parsePlannerAnswer(answer.text, observation, follower.exitCount));
    this.plannedAt = observation.step;
  }

  /** Parses an answer, recording the verdict; a rejected answer is invalid_output. */
  private judge<T>(answer: Answer, parse: () => T): T {
    try {
      const value = parse();
      this.calls.push({ ...answer.call, status: 'ok', error: null });
      return value;
    } catch (error) {
      const message = error instanceof ModelOutputError ? error.message : String(error);
      this.calls.push({ ...answer.call, status: 'invalid_output', error: message });
      throw new ModelOutputError(`model answer at step ${answer.call.step}: ${message}`);
    }
  }

  private async ask(observation: Observation, grid: Grid): Promise<Answer> {
    const messages: ChatMessage[] = promptMessages(this.ctx.systemPrompt, observation, grid);
    const prompt = messages[1]!.content;
    const cached = this.ctx.cache === null ? undefined : await this.ctx.cache.get(messages);
    if (cached !== undefined) {
      this.count({ ...NO_USAGE, calls: 1, cacheHits: 1 });
      const call = { type: 'call' as const, step: observation.step, prompt, answer: cached, attempts: 0, retries: 0, timeouts: 0, latency_ms: 0, input_tokens: 0, output_tokens: 0, cached: true };
      return { text: cached, call };
    }
    const body = completionRequest(this.ctx.config.inference, messages);
    try {
      const result = await callChat(this.ctx.policy, body, this.ctx.slots, this.ctx.signal);
      const usage = result.completion.usage;
      this.count({
        calls: 1,
        inputTokens: usage?.inputTokens ?? 0,
        outputTokens: usage?.outputTokens ?? 0,
        retries: result.retries,
        timeouts: result.timeouts,
        latencyMs: result.latencyMs,
        cacheHits: 0,
        unmetered: usage === null ? 1 : 0,
      });
      const text = scrub(result.completion.content, this.ctx.policy.apiKey);
      if (this.ctx.cache !== null) await this.ctx.cache.put(messages, text);
      const call = {
        type: 'call' as const,
        step: observation.step,
        prompt,
        answer: text,
        attempts: result.attempts,
        retries: result.retries,
        timeouts: result.timeouts,
        latency_ms: result.latencyMs,
        input_tokens: usage?.inputTokens ?? null,
        output_tokens: usage?.outputTokens ?? null,
        cached: false,
      };
      return { text, call };
    } catch (error) {
      if (!(error instanceof CallError)) {
        // The run was cut (cancel, Ctrl+C, a stop) with this call on the wire: it was made, so it is counted; its
        // answer was never read, so its tokens are unknown and not counted.
        if (this.ctx.signal.aborted) this.recordCutCall(observation.step, prompt);
        throw error;
      }
      const s = error.stats;
      this.count({ ...NO_USAGE, calls: 1, retries: s.retries, timeouts: s.timeouts, latencyMs: s.latencyMs });
      this.calls.push({
        type: 'call',
        step: observation.step,
        prompt,
        answer: null,
        status: error.failure,
        error: error.message,
        attempts: s.attempts,
        retries: s.retries,
        timeouts: s.timeouts,
        latency_ms: s.latencyMs,
        input_tokens: null,
        output_tokens: null,
        cached: false,
      });
      const message = `model call at step ${observation.step}: ${error.message}`;
      if (error.endpoint !== null) throw new EndpointError(`${message}; ${endpointAdvice(error.endpoint, this.ctx.config)}; the run stopped at this episode and declared no failure, so a resume after the fix runs it again`);
      throw new AgentError(error.failure, message);
    }
  }

  private recordCutCall(step: number, prompt: string): void {
    this.count({ ...NO_USAGE, calls: 1 });
    this.calls.push({
      type: 'call',
      step,
      prompt,
      answer: null,
      status: 'model_error',
      error: 'cut: the run stopped while this call was in flight; its answer was not read',
      attempts: 1,
      retries: 0,
      timeouts: 0,
      latency_ms: 0,
      input_tokens: null,
      output_tokens: null,
      cached: false,
    });
  }

  private count(usage: UsageTotals): void {
    this.usage = addUsage(this.usage, usage);
    if (this.ctx.liveUsage !== null) addLiveUsage(this.ctx.liveUsage, usage);
  }

  /** Writes the transcript (also after a failure) and reports the episode's usage. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const c = this.ctx.config;
    await writeTranscript(this.ctx.transcriptDir, {
      header: {
        type: 'episode',
        transcript_version: '1.0',
        episode: this.episode,
        provider_id: c.provider_id,
        inference_config_digest: c.inference_config_digest,
        inference: c.inference,
        system_prompt: this.ctx.systemPrompt,
      },
      calls: this.calls,
      summary: summaryOf(this.usage, this.failure),
    });
    this.ctx.onEpisodeUsage(this.usage);
  }
}
