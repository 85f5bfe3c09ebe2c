/**
 * A live usage counter shared by every thread of a run (a SharedArrayBuffer
 * of BigInt64 cells updated with Atomics), for a running token and cost
 * display: the app creates it, passes it in LlmAgentOptions.liveUsage (it
 * crosses into --jobs workers as is) and reads it whenever it likes. The
 * counter is added to after every model call, so it also counts calls of
 * episodes that later fail or are abandoned; the operational record, built
 * from the transcripts of the episodes a result holds, is the authoritative
 * figure.
 */

import { costOf, type UsageTotals } from '../../../core/llm/cost.js';
import type { Pricing } from '../../../core/llm/config.js';
import type { Rational } from '../../../core/stats/rational.js';

const FIELDS = ['calls', 'inputTokens', 'outputTokens', 'retries', 'timeouts', 'latencyMs', 'cacheHits', 'unmetered'] as const;

export function createLiveUsage(): SharedArrayBuffer {
  return new SharedArrayBuffer(FIELDS.length * 8);
}

/** Adds one call's usage (any thread). */
export function addLiveUsage(buffer: SharedArrayBuffer, usage: UsageTotals): void {
  const cells = new BigInt64Array(buffer);
  FIELDS.forEach((field, i) => {
    if (usage[field] !== 0) Atomics.add(cells, i, BigInt(usage[field]));
  });
}

/** The totals so far. */
export function readLiveUsage(buffer: SharedArrayBuffer): UsageTotals {
  const cells = new BigInt64Array(buffer);
  const cell = (field: (typeof FIELDS)[number]): number => Number(Atomics.load(cells, FIELDS.indexOf(field)));
  return {
    calls: cell('calls'),
    inputTokens: cell('inputTokens'),
    outputTokens: cell('outputTokens'),
    retries: cell('retries'),
    timeouts: cell('timeouts'),
    latencyMs: cell('latencyMs'),
    cacheHits: cell('cacheHits'),
    unmetered: cell('unmetered'),
  };
}

/** The cost so far under a pricing table (exact), or null when some answer had no usage fields. */
export function liveCost(buffer: SharedArrayBuffer, pricing: Pricing): Rational | null {
  const usage = readLiveUsage(buffer);
  return usage.unmetered > 0 ? null : costOf(pricing, usage.inputTokens, usage.outputTokens);
}
