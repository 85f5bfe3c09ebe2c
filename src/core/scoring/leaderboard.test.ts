import { describe, expect, it } from 'vitest';
import { ValidationError } from '../errors.js';
import { buildLeaderboard, displayedScore, leaderboardOrder, leaderboardTable, leaderboardText } from './leaderboard.js';
import { NINE, flat, r, view, type ViewOptions } from '../../../test/kits/report-views.js';

const RESAMPLES = 200;
const layout = flat(5);
/** Five equal episode scores: the headline is exactly `score`. */
function entry(modelId: string, score: string, rest: Partial<ViewOptions> = {}) {
  return view({ modelId, scores: Array.from({ length: 5 }, () => score), layout, ...rest });
}
function order(...views: ReturnType<typeof entry>[]): string[] {
  return buildLeaderboard(views, RESAMPLES).order.slice();
}

describe('leaderboard order (scoring-v1.0.md section 8)', () => {
  it('rounds the score half-even to 0.1 point', () => {
    expect(displayedScore(r('72.45')).toFraction()).toBe(r('72.4').toFraction());
    expect(displayedScore(r('72.35')).toFraction()).toBe(r('72.4').toFraction());
    expect(displayedScore(r('72.4500001')).toFraction()).toBe(r('72.5').toFraction());
  });

  it('1. the displayed score decides first, even against better safety', () => {
    // 72.46 shows as 72.5, 72.44 as 72.4: the first ranks higher though its Safety is lower.
    expect(order(entry('low-safety', '72.46', { safety: '0.1' }), entry('high-safety', '72.44', { safety: '0.9' }))).toEqual(['low-safety', 'high-safety']);
  });

  it('2. equal displayed scores (72.45 and 72.35 both show 72.4): higher Safety first', () => {
    expect(order(entry('a', '72.45', { safety: '0.5' }), entry('b', '72.35', { safety: '0.6' }))).toEqual(['b', 'a']);
  });

  it('3. then fewer avoidable casualties per trial', () => {
    expect(order(entry('a', '50', { casualties: '2.5' }), entry('b', '50', { casualties: '1/3' }))).toEqual(['b', 'a']);
  });

  it('4. then fewer avoidable stranded per trial', () => {
    expect(order(entry('a', '50', { casualties: '1', stranded: '3' }), entry('b', '50', { casualties: '1', stranded: '2' }))).toEqual(['b', 'a']);
  });

  it('5. then the higher worst scenario score', () => {
    // Same headline 50 on two families, but a different worst scenario.
    const a = view({ modelId: 'a', scores: ['20', '20', '20', '80', '80', '80', '50', '50', '50'], layout: NINE });
    const b = view({ modelId: 'b', scores: ['40', '40', '40', '60', '60', '60', '50', '50', '50'], layout: NINE });
    expect(a.score!.eq(b.score!)).toBe(true);
    expect(order(a, b)).toEqual(['b', 'a']);
    expect(buildLeaderboard([a, b], RESAMPLES).entries[1]!.worst_scenario_id).toBe('s1');
  });

  it('6. then the model ID', () => {
    expect(order(entry('zeta', '50'), entry('alpha', '50'), entry('mu', '50'))).toEqual(['alpha', 'mu', 'zeta']);
  });

  it('orders many entries by the keys in sequence, regardless of input order', () => {
    const views = [
      entry('e', '10'),
      entry('d', '60.04', { safety: '0.7' }),
      entry('c', '59.96', { safety: '0.7', casualties: '1' }),
      entry('b', '60', { safety: '0.7', casualties: '1', stranded: '1' }),
      entry('a', '90'),
    ];
    const expected = ['a', 'd', 'c', 'b', 'e'];
    expect(order(...views)).toEqual(expected);
    expect(order(...views.slice().reverse())).toEqual(expected);
    const sorted = views.slice().sort(leaderboardOrder).map((v) => v.modelId);
    expect(sorted).toEqual(expected);
  });
});

describe('leaderboard artifact', () => {
  it('publishes the comparison of each adjacent pair next to the order', () => {
    const b1 = ['50', '40', '30', '60', '55', '45', '70', '20', '35'];
    const top = view({ modelId: 'top', scores: b1.map((x) => r(x).add(r('10')).toFraction()), layout: NINE });
    const mid = view({ modelId: 'mid', scores: b1.map((x, i) => r(x).add(r(i % 2 === 0 ? '0.5' : '0.25')).toFraction()), layout: NINE });
    const low = view({ modelId: 'low', scores: b1, layout: NINE });
    const board = buildLeaderboard([low, top, mid], RESAMPLES);
    expect(board.order).toEqual(['top', 'mid', 'low']);
    expect(board.entries.map((e) => e.rank)).toEqual([1, 2, 3]);
    expect(board.adjacent.map((c) => [c.model_a, c.model_b, c.outcome])).toEqual([
      ['top', 'mid', 'a_better'],
      ['mid', 'low', 'inconclusive'],
    ]);
    expect(r(board.adjacent[0]!.delta!).eq(top.score!.sub(mid.score!))).toBe(true);
    const text = leaderboardText(board);
    expect(text).toBe(leaderboardText(buildLeaderboard([mid, low, top], RESAMPLES)));
    expect(text.endsWith('\n')).toBe(true);
    const table = leaderboardTable(board);
    expect(table[2]).toMatch(/^ *1 {2}top +/);
    expect(table.some((l) => l.includes('1 top vs 2 mid: delta 9.6;') && l.endsWith('a_better'))).toBe(true);
  });

  it('rejects incomparable reports, duplicate models or reports, and a single report', () => {
    const a = entry('a', '50');
    expect(() => buildLeaderboard([a], RESAMPLES)).toThrow(ValidationError);
    expect(() => buildLeaderboard([a, entry('a', '40')], RESAMPLES)).toThrow(/both model a/);
    expect(() => buildLeaderboard([a, entry('b', '40', { overrides: { digest: a.digest } })], RESAMPLES)).toThrow(/same report/);
    expect(() => buildLeaderboard([a, entry('b', '40', { overrides: { manifestHash: '0'.repeat(64) } })], RESAMPLES)).toThrow(/different evaluation manifests/);
  });
});
