import { beforeAll, describe, expect, it } from 'vitest';
import { Rational } from '../../src/core/stats/rational.js';
import { scoreBaselines, type BaselineScore } from '../../src/node/workflows/baseline-ranking.js';

// The public suite must rank the baselines (issue "The EMBER Score"): on the
// development seeds 0, 1, 2, congestion-aware > fire-aware > static >
// nearest-exit-greedy > random-legal = always-stay = 0, each adjacent gap at
// least 1 point, and the best below 75 so that better models have room.
describe('the public suite ranks the baselines', () => {
  let scores: Map<string, Rational>;
  let reports: BaselineScore[];

  beforeAll(async () => {
    reports = await scoreBaselines('scenarios/public/v1', ['0', '1', '2']);
    scores = new Map(reports.map(({ id, report }) => [id, Rational.parse(report.score!)]));
  }, 300_000);

  it('orders the policies with gaps of at least one point', () => {
    const order = ['congestion-aware-v1', 'fire-aware-shortest-path-v1', 'static-shortest-path-v1', 'nearest-exit-greedy-v1', 'random-legal-v1'];
    for (let k = 0; k + 1 < order.length; k++) {
      const gap = scores.get(order[k]!)!.sub(scores.get(order[k + 1]!)!);
      expect(gap.cmp(Rational.ONE), `${order[k]} - ${order[k + 1]} = ${gap.toFixed(3)}`).toBeGreaterThanOrEqual(0);
    }
  });

  it('scores random-legal and always-stay exactly 0 and keeps the best below 75', () => {
    expect(scores.get('random-legal-v1')!.isZero()).toBe(true);
    expect(scores.get('always-stay')!.isZero()).toBe(true);
    expect(scores.get('congestion-aware-v1')!.cmp(Rational.of(75))).toBeLessThan(0);
  });

  it('keeps every quality ratio of every baseline episode within (0, 1]', () => {
    for (const { report } of reports) {
      for (const episode of report.episodes) {
        for (const trial of episode.trials) {
          for (const value of Object.values(trial.breakdown?.components ?? {})) {
            if (value === null) continue;
            const ratio = Rational.parse(value);
            expect(ratio.cmp(Rational.ONE)).toBeLessThanOrEqual(0);
            expect(ratio.cmp(Rational.ZERO)).toBeGreaterThanOrEqual(0);
          }
        }
      }
    }
  });
});
