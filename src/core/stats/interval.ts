/**
 * A bootstrap interval. Apart from bootstrap.ts so that the joint and
 * filtered bootstraps, which bootstrap.ts itself calls, can name it
 * without importing bootstrap.ts back.
 */

import type { Rational } from './rational.js';

export interface Interval {
  readonly lower: Rational;
  readonly upper: Rational;
}
