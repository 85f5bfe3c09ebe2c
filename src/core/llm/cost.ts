/**
 * Evaluator-computed cost and usage totals of model calls (scoring-v1.0.md
 * section 11): exact arithmetic only. Tokens are summed as integers, input
 * and output apart; the cost is input_tokens * input_per_million / 10^6 +
 * output_tokens * output_per_million / 10^6, an exact fraction.
 */

import { Rational } from '../stats/rational.js';
import type { Pricing } from './config.js';

const MILLION = Rational.of(1_000_000n);

/** The exact cost of token counts under a pricing table. */
export function costOf(pricing: Pricing, inputTokens: number, outputTokens: number): Rational {
  const input = Rational.parse(pricing.input_per_million).mul(Rational.of(BigInt(inputTokens))).div(MILLION);
  const output = Rational.parse(pricing.output_per_million).mul(Rational.of(BigInt(outputTokens))).div(MILLION);
  return input.add(output);
}

/** Usage of a set of model calls. */
export interface UsageTotals {
  readonly calls: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly retries: number;
  readonly timeouts: number;
  /** Evaluator-measured wall time of the calls (retries and backoff included), whole milliseconds. */
  readonly latencyMs: number;
  /** Answers served from the response cache (no network call). */
  readonly cacheHits: number;
  /** Answers whose response had no usage fields: their tokens are unknown, so the cost is too. */
  readonly unmetered: number;
}

export const NO_USAGE: UsageTotals = { calls: 0, inputTokens: 0, outputTokens: 0, retries: 0, timeouts: 0, latencyMs: 0, cacheHits: 0, unmetered: 0 };

export function addUsage(a: UsageTotals, b: UsageTotals): UsageTotals {
  return {
    calls: a.calls + b.calls,
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    retries: a.retries + b.retries,
    timeouts: a.timeouts + b.timeouts,
    latencyMs: a.latencyMs + b.latencyMs,
    cacheHits: a.cacheHits + b.cacheHits,
    unmetered: a.unmetered + b.unmetered,
  };
}

/** Whole milliseconds as an exact decimal string of seconds ("12.5", "0"). */
export function millisecondsAsSeconds(ms: number): string {
  if (!Number.isSafeInteger(ms) || ms < 0) throw new RangeError(`bad millisecond count ${ms}`);
  const whole = Math.floor(ms / 1000);
  const frac = String(ms % 1000).padStart(3, '0').replace(/0+$/, '');
  return frac === '' ? String(whole) : `${whole}.${frac}`;
}

/**
 * The one way a cost is shown, live or recorded (the app's counters, the
 * Trial page, the CLI's progress): its exact decimal expansion, never
 * rounded. Prices are decimals and tokens integers, so a cost always
 * terminates ("0.12029145"); a fraction that would not (not a cost) falls
 * back to "num/den".
 */
export function costText(value: Rational): string {
  let scale = 0n;
  let pow = 1n;
  while (pow % value.den !== 0n) {
    scale += 1n;
    pow *= 10n;
    if (scale > 60n) return value.toFraction();
  }
  const negative = value.num < 0n;
  const digits = (((negative ? -value.num : value.num) * pow) / value.den).toString().padStart(Number(scale) + 1, '0');
  const sign = negative ? '-' : '';
  if (scale === 0n) return sign + digits;
  const text = `${digits.slice(0, -Number(scale))}.${digits.slice(-Number(scale))}`;
  return sign + text.replace(/\.?0+$/, '');
}
