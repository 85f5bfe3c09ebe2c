/**
 * The single-failure profile of scoring-v1.0.md section 5, computed live
 * from scoreEpisode: every row is an episode that is perfect except for the
 * stated failure (population 100 unless stated, replanning undefined unless
 * stated), its score rounded half-even to 0.1 point as the table prints it.
 * A row with several cases ("Time 0.9 / 0.8 / 0.5") prints their scores
 * joined by " / ", so each row's text can be compared with the spec table.
 */

import { dec, toPlain } from './decimal.js';
import { scoreEpisode, type EpisodeScoreInput } from './episode-score.js';

export interface ScoringTableRow {
  readonly case: string;
  readonly score: string;
}

// Step and move totals of the perfect episode; any positive values give the same components.
const STEPS = 100;

/** A perfect episode: M* = population, everyone evacuated at the bounds, no danger above D*. */
function perfect(population: number): EpisodeScoreInput {
  return {
    maxEvacuated: population,
    population,
    evacuated: population,
    avoidableCasualties: 0,
    avoidableStranded: 0,
    time: { bound: STEPS, actual: STEPS },
    hazard: { dangerStates: 0, fewestDangerStates: 0, evacuationSteps: STEPS },
    path: { bound: STEPS, actual: STEPS },
    replanning: null,
  };
}

/** Perfect but for c avoidable casualties and s avoidable stranded people among `population` savable people. */
function losses(c: number, s: number, population = 100): EpisodeScoreInput {
  return { ...perfect(population), evacuated: population - c - s, avoidableCasualties: c, avoidableStranded: s };
}

/** A ratio component with value num / den (bound num, actual den). */
function ratio(num: number, den: number): { bound: number; actual: number } {
  return { bound: num, actual: den };
}

/** Hazard with avoidable danger-zone rate avoidable / STEPS. */
function hazard(avoidable: number): EpisodeScoreInput['hazard'] {
  return { dangerStates: avoidable, fewestDangerStates: 0, evacuationSteps: STEPS };
}

const P = perfect(100);

const ROWS: readonly (readonly [string, readonly EpisodeScoreInput[]])[] = [
  ['perfect', [P]],
  ['1 avoidable casualty', [losses(1, 0)]],
  ['2 casualties', [losses(2, 0)]],
  ['3 casualties', [losses(3, 0)]],
  ['5 casualties', [losses(5, 0)]],
  ['10 casualties', [losses(10, 0)]],
  ['25 casualties', [losses(25, 0)]],
  ['1 casualty in a population of 4', [losses(1, 0, 4)]],
  ['1 stranded', [losses(0, 1)]],
  ['10 stranded', [losses(0, 10)]],
  // The unsavable person is outside M*: population 100, M* = 99.
  ['1 savable casualty + 1 unsavable stranded person', [{ ...losses(1, 0, 99), population: 100 }]],
  ['50 losses (the gate)', [losses(25, 25)]],
  ['Time 0.9 / 0.8 / 0.5 (threshold)', [9, 8, 5].map((t) => ({ ...P, time: ratio(t, 10) }))],
  ['Time 0.4 / 0.25 / 0.1 (severe)', [ratio(4, 10), ratio(1, 4), ratio(1, 10)].map((time) => ({ ...P, time }))],
  // Blocked moves are not a score input (section 4.2): the episode is the perfect one.
  ['any block rate, no delay (blocks are diagnostics)', [P]],
  ['avoidable danger-zone rate 0.1 / 0.3 (severe)', [10, 30].map((a) => ({ ...P, hazard: hazard(a) }))],
  ['Path 0.6 / 0.4 (severe)', [6, 4].map((p) => ({ ...P, path: ratio(p, 10) }))],
  ['Replanning 0.8 / 0.3 (severe), replanning defined', [8, 3].map((r) => ({ ...P, replanning: ratio(r, 10) }))],
  ['every quality component exactly at its threshold', [{ ...P, time: ratio(1, 2), hazard: hazard(STEPS / 4), path: ratio(1, 2), replanning: ratio(1, 2) }]],
];

/** The score of an episode rounded half-even to 0.1 point. */
function displayed(input: EpisodeScoreInput): string {
  const { score } = scoreEpisode(input);
  if (score === null) throw new RangeError('a section 5 row is not applicable');
  return toPlain(dec(score), 1);
}

/** Every row of the section 5 table, in the spec's order. */
export function scoringTable(): ScoringTableRow[] {
  return ROWS.map(([label, inputs]) => ({ case: label, score: inputs.map(displayed).join(' / ') }));
}
