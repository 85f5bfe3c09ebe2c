/** Shared helpers of `npm run bench`: timing by the median of repeated runs, and figure printing. */

import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const PUBLIC_SUITE = join(ROOT, 'scenarios/public/v1');
export const LARGE_HALL = join(PUBLIC_SUITE, 'v1-pub-10-large-hall.json');

export interface Figure {
  readonly name: string;
  readonly value: number;
  readonly unit: string;
  readonly goal?: string;
  readonly ok?: boolean;
}

/**
 * Median wall time in seconds of `runs` runs, after `warmups` runs that let
 * the JIT compile the hot paths (the first runs of an episode loop are
 * several times slower than the steady state).
 */
export async function timeIt(fn: () => unknown, runs = 5, warmups = 1): Promise<number> {
  for (let i = 0; i < warmups; i++) await fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint();
    await fn();
    times.push(Number(process.hrtime.bigint() - start) / 1e9);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

export function formatFigure(f: Figure): string {
  const value = f.value >= 1000 ? Math.round(f.value).toLocaleString('en-US') : f.value.toPrecision(3);
  const goal = f.goal ? `  (goal ${f.goal}: ${f.ok ? 'met' : 'MISSED'})` : '';
  return `  ${f.name}: ${value}${f.unit ? ' ' + f.unit : ''}${goal}`;
}
