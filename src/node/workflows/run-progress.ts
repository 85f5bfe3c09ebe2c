/**
 * The CLI's progress of a run of K trials (`evaluation run --trials K`, on
 * stderr): each episode line says which trial it belongs to ("trial 2 of
 * 3"), and for the chat adapter what this trial and the whole run have
 * spent so far (calls, tokens, cost), from one live counter shared by every
 * trial's threads (live-usage.ts). The app's run card shows the same figures
 * (run.progress `trial`).
 */

import { NO_USAGE, costOf, costText, type UsageTotals } from '../../core/llm/cost.js';
import type { Pricing } from '../../core/llm/config.js';
import type { Rational } from '../../core/stats/rational.js';
import { createLiveUsage, readLiveUsage } from '../agents/openai-chat/live-usage.js';

export interface RunMeter {
  /** The live counter to hand every trial's adapter (absent: not a language model). */
  readonly liveUsage: SharedArrayBuffer | undefined;
  /** Trial k starts: its counters start at the run's totals so far. */
  startTrial(k: number): void;
  /** The prefix and suffix of an episode progress line. */
  decorate(line: string): string;
}

function spent(usage: UsageTotals, pricing: Pricing | null): string {
  const tokens = `${usage.calls} calls, ${usage.inputTokens} input + ${usage.outputTokens} output tokens`;
  if (pricing === null) return tokens;
  const cost: Rational | null = usage.unmetered > 0 ? null : costOf(pricing, usage.inputTokens, usage.outputTokens);
  return `${tokens}, cost ${cost === null ? 'unknown' : `${costText(cost)} ${pricing.cost_unit}`}`;
}

function minus(a: UsageTotals, b: UsageTotals): UsageTotals {
  return {
    calls: a.calls - b.calls,
    inputTokens: a.inputTokens - b.inputTokens,
    outputTokens: a.outputTokens - b.outputTokens,
    retries: a.retries - b.retries,
    timeouts: a.timeouts - b.timeouts,
    latencyMs: a.latencyMs - b.latencyMs,
    cacheHits: a.cacheHits - b.cacheHits,
    unmetered: a.unmetered - b.unmetered,
  };
}

/** A meter for `trials` trials; `llm` is the adapter's pricing table (or null) when the agent is a language model. */
export function runMeter(trials: number, llm: { readonly pricing: Pricing | null } | null): RunMeter {
  const liveUsage = llm === null ? undefined : createLiveUsage();
  let trial = 1;
  let atStart: UsageTotals = NO_USAGE;
  return {
    liveUsage,
    startTrial(k) {
      trial = k;
      if (liveUsage !== undefined) atStart = readLiveUsage(liveUsage);
    },
    decorate(line) {
      const prefix = trials > 1 ? `trial ${trial} of ${trials}: ` : '';
      if (liveUsage === undefined || llm === null) return prefix + line;
      const total = readLiveUsage(liveUsage);
      const run = trials > 1 ? `; run total: ${spent(total, llm.pricing)}` : '';
      return `${prefix}${line}; this trial: ${spent(minus(total, atStart), llm.pricing)}${run}`;
    },
  };
}
