// Hand-built report views for the comparison and leaderboard tests. The
// headline is computed from the episode scores with the real hierarchy, so
// every view is internally consistent unless a test overrides a field.

import { buildHierarchy, familyBalancedMean, scenarioMeans } from '../../src/core/stats/hierarchy.js';
import { Rational } from '../../src/core/stats/rational.js';
import type { ReportEpisode, ReportView } from '../../src/core/scoring/compare.js';

export const HEX_C = 'c'.repeat(64);
export const HEX_M = 'd'.repeat(64);
export const HEX_S = 'e'.repeat(64);

/** A layout: per episode its scenario and primary family, in manifest order. */
export type Layout = readonly { readonly scenarioId: string; readonly primaryFamily: string }[];

/** Two families; family "alpha" has scenarios s1 (3 seeds) and s2 (3 seeds), "beta" has s3 (3 seeds): 9 episodes. */
export const NINE: Layout = [
  ...['s1', 's1', 's1', 's2', 's2', 's2'].map((scenarioId) => ({ scenarioId, primaryFamily: 'alpha' })),
  ...['s3', 's3', 's3'].map((scenarioId) => ({ scenarioId, primaryFamily: 'beta' })),
];

/** One family, one scenario, n seeds. */
export function flat(n: number): Layout {
  return Array.from({ length: n }, () => ({ scenarioId: 'only', primaryFamily: 'solo' }));
}

export function r(text: string): Rational {
  return Rational.parse(text);
}

export interface ViewOptions {
  readonly modelId: string;
  /** Episode scores as decimal or fraction strings, null for not applicable. */
  readonly scores: readonly (string | null)[];
  readonly layout: Layout;
  readonly safety?: string | null;
  readonly casualties?: string;
  readonly stranded?: string;
  readonly overrides?: Partial<ReportView>;
}

export function view(o: ViewOptions): ReportView {
  if (o.scores.length !== o.layout.length) throw new Error('scores and layout differ in length');
  const episodes: ReportEpisode[] = o.layout.map((l, index) => ({
    index,
    scenarioId: l.scenarioId,
    primaryFamily: l.primaryFamily,
    score: o.scores[index] === null ? null : r(o.scores[index]!),
  }));
  const h = buildHierarchy(episodes.map((e) => ({ family: e.primaryFamily, scenarioId: e.scenarioId, value: e.score })));
  const scenarios = scenarioMeans(h).sort((a, b) => a.mean.cmp(b.mean) || (a.scenarioId < b.scenarioId ? -1 : 1));
  const worst = scenarios[0];
  return {
    digest: `${o.modelId}-digest`,
    modelId: o.modelId,
    scoringVersion: '1.0',
    constantsDigest: HEX_C,
    manifestHash: HEX_M,
    suiteHash: HEX_S,
    official: false,
    packDigest: null,
    packId: null,
    trials: 1,
    score: familyBalancedMean(h),
    safety: o.safety === null ? null : r(o.safety ?? '1'),
    avoidableCasualtiesPerTrial: r(o.casualties ?? '0'),
    avoidableStrandedPerTrial: r(o.stranded ?? '0'),
    worstScenario: worst === undefined ? null : { scenarioId: worst.scenarioId, score: worst.mean },
    episodes,
    ...o.overrides,
  };
}
