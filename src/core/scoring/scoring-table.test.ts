import { describe, expect, it } from 'vitest';
import { dec, cmp } from './decimal.js';
import { scoreEpisode, type EpisodeScoreInput } from './episode-score.js';
import { scoringTable } from './scoring-table.js';

// scoring-v1.0.md section 5, "Single-failure profile under the official constants", as printed.
const SPEC_TABLE: readonly (readonly [string, string])[] = [
  ['perfect', '100.0'],
  ['1 avoidable casualty', '56.5'],
  ['2 casualties', '39.4'],
  ['3 casualties', '30.0'],
  ['5 casualties', '19.6'],
  ['10 casualties', '9.1'],
  ['25 casualties', '1.6'],
  ['1 casualty in a population of 4', '10.7'],
  ['1 stranded', '76.8'],
  ['10 stranded', '30.3'],
  ['1 savable casualty + 1 unsavable stranded person', '56.5'],
  ['50 losses (the gate)', '0.0'],
  ['Time 0.9 / 0.8 / 0.5 (threshold)', '96.2 / 92.1 / 77.5'],
  ['Time 0.4 / 0.25 / 0.1 (severe)', '45.7 / 24.0 / 6.8'],
  ['any block rate, no delay (blocks are diagnostics)', '100.0'],
  ['avoidable danger-zone rate 0.1 / 0.3 (severe)', '97.4 / 68.4'],
  ['Path 0.6 / 0.4 (severe)', '93.9 / 57.2'],
  ['Replanning 0.8 / 0.3 (severe), replanning defined', '96.0 / 38.5'],
  ['every quality component exactly at its threshold', '64.7'],
];

describe('the section 5 single-failure profile', () => {
  it('computed live equals the table printed in the spec, row by row', () => {
    expect(scoringTable().map((r) => [r.case, r.score])).toEqual(SPEC_TABLE);
  });
});

/** M* savable people (population M*), c avoidable casualties, s avoidable stranded; quality components as given. */
function run(m: number, c: number, s: number, atThresholds: boolean): EpisodeScoreInput {
  const steps = 4 * m;
  return {
    maxEvacuated: m,
    population: m,
    evacuated: m - c - s,
    avoidableCasualties: c,
    avoidableStranded: s,
    // Exactly at each severe threshold: T = 1/2, avoidable danger-zone rate 1/4, P = 1/2, R = 1/2.
    time: atThresholds ? { bound: steps / 2, actual: steps } : { bound: steps, actual: steps },
    hazard: { dangerStates: atThresholds ? steps / 4 : 0, fewestDangerStates: 0, evacuationSteps: steps },
    path: atThresholds ? { bound: m, actual: 2 * m } : { bound: m, actual: m },
    replanning: atThresholds ? { bound: 1, actual: 2 } : null,
  };
}

function score(input: EpisodeScoreInput) {
  const r = scoreEpisode(input);
  return { ...r, value: dec(r.score!) };
}

describe('requirement R12 (sections 4.3 and 13)', () => {
  it('for M* from 2 to 1000, no avoidable loss and every component at its threshold beats a perfect run with one avoidable casualty', () => {
    for (let m = 2; m <= 1000; m++) {
      const safe = score(run(m, 0, 0, true));
      const casualty = score(run(m, 1, 0, false));
      expect(safe.severe).toEqual([]);
      if (cmp(safe.value, casualty.value) <= 0) expect({ m, safe: safe.score, casualty: casualty.score }).toBe('safe above casualty');
    }
  });

  it('also with one extra avoidable stranded person on both sides (M* from 3: at M* = 2 one stranded person is the gate for both)', () => {
    expect(score(run(2, 0, 1, true)).status).toBe('catastrophic');
    for (let m = 3; m <= 1000; m++) {
      const safe = score(run(m, 0, 1, true));
      const casualty = score(run(m, 1, 1, false));
      expect(safe.severe).toEqual([]);
      if (cmp(safe.value, casualty.value) <= 0) expect({ m, safe: safe.score, casualty: casualty.score }).toBe('safe above casualty');
    }
  });
});
