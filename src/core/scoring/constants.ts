/**
 * The official scoring constants of EMBER scoring version 1.0
 * (scoring-v1.0.md sections 3, 4, 4.5, 7 and 8) and their digest.
 *
 * Keys are the spec's symbols (kE, alpha_c, k_c, ...). Every value is a decimal string, so the object is canonical JSON (which
 * refuses floats) and the digest is SHA-256 of its canonical JSON. The
 * arithmetic settings (precision, places) are in it too: section 1 changes
 * the scoring version when "a constant, the arithmetic or the
 * serialization" changes, so the digest pins them. beta is not in it: it is
 * derived from alpha_c and the severe thresholds (section 4.3).
 */

import { digestOf } from '../hash.js';

export const SCORING_CONSTANTS = {
  /** kE: exponent of the evacuation factor (evacuated / M*) ^ kE. */
  kE: '2',
  /** alpha_c: incident base of the casualty factor, paid per doubling of 1 + c. */
  alpha_c: '0.6',
  /** k_c: exponent of the casualty rate term (1 - c / M*) ^ k_c. */
  k_c: '4',
  /** alpha_s: incident base of the stranding factor. */
  alpha_s: '0.8',
  /** k_s: exponent of the stranding rate term. */
  k_s: '2',
  /** Safety is 0 when (c + s) / M* >= this. */
  catastrophic_loss_rate: '0.5',
  /** Quality weights w_k, renormalized over the defined components. */
  weights: { time: '0.375', hazard: '0.25', path: '0.125', replanning: '0.25' },
  /** kH: exponent of the hazard component. */
  kH: '1',
  /** q_k_severe: a component strictly below its threshold (component space) is severe. Hazard 0.75 = avoidable danger-zone rate above 1/4. */
  severe_thresholds: { time: '0.5', hazard: '0.75', path: '0.5', replanning: '0.5' },
  /** phi: the severe factor phi * (q / q_severe) ^ gamma. */
  phi: '0.8',
  /** gamma: exponent of the severe factor. */
  gamma: '1',
  /** HAZARD_RADIUS: a person-state is in the danger zone when 0 < d <= this (Manhattan, walls ignored). */
  hazard_radius: '2',
  /** Points: the smallest score difference that counts as "better" in a comparison. */
  practical_difference: '1',
  /** Default number of bootstrap resamples. */
  resamples: '2000',
  /** Significant digits of the decimal arithmetic (ROUND_HALF_EVEN). */
  precision: '50',
  /** Components, Safety, Quality, Severity: places after the point. */
  component_places: '12',
  /** Episode score and ceiling (points): places after the point. */
  score_places: '9',
} as const;

export type ScoringConstants = typeof SCORING_CONSTANTS;

/** SHA-256 of the canonical JSON of SCORING_CONSTANTS. */
export const SCORING_CONSTANTS_DIGEST: string = digestOf(SCORING_CONSTANTS);

/** Places after the point of the components, Safety, Quality, Severity and beta. */
export const COMPONENT_PLACES = Number(SCORING_CONSTANTS.component_places);

/** Places after the point of the episode score and the ceiling (points). */
export const SCORE_PLACES = Number(SCORING_CONSTANTS.score_places);
