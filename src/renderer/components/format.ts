/** Display formatting. Scores use the library's exact rationals, rounded exactly as the CLI summary rounds them. */

import { Rational } from '../../core/stats/rational.js';

/** An exact score ("num/den" or a decimal string) to one decimal, as `emberbench score` prints it; "n/a" when undefined. */
export function points(value: string | null | undefined): string {
  return value === null || value === undefined ? 'n/a' : Rational.parse(value).toFixed(1);
}

/** A factor or rate to three decimals, as the summary prints it. */
export function factor(value: string | null | undefined): string {
  return value === null || value === undefined ? 'n/a' : Rational.parse(value).toFixed(3);
}

/** A value in [0, 1] (or a score in [0, 100] with scale 100) as a number for drawing only. */
export function approx(value: string | null | undefined): number {
  if (value === null || value === undefined) return 0;
  const r = Rational.parse(value);
  return Number(r.num) / Number(r.den);
}

export function duration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '–';
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${s % 60} s`;
  return `${Math.floor(m / 60)} h ${m % 60} min`;
}

export function shortHash(hash: string): string {
  return hash.slice(0, 12);
}

export function dateTime(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** A compact date for table cells. */
export function shortDateTime(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString(undefined, { dateStyle: 'short', timeStyle: 'short' });
}

/**
 * A number of people (a per-trial total, exact): whole people as a whole
 * number ("2,651", never "2651.0"); a mean over several trials that is not
 * whole keeps one decimal, rounded as the CLI rounds.
 */
export function people(value: string | null | undefined): string {
  if (value === null || value === undefined) return 'n/a';
  const r = Rational.parse(value);
  return r.den === 1n ? Number(r.num).toLocaleString('en-US') : r.toFixed(1);
}

export function count(n: number, one: string, many: string = one + 's'): string {
  return `${n.toLocaleString()} ${n === 1 ? one : many}`;
}
