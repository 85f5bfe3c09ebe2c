// The strict report loader: a real report round-trips; any tampering with
// the evidence, an aggregate, the header or the bytes is rejected (exit 3).
import { beforeAll, describe, expect, it } from 'vitest';
import { baselineFactory } from '../baselines/registry.js';
import { ValidationError } from '../errors.js';
import { fileDigest } from '../hash.js';
import { canonicalJson, indentedJson, type JsonObject } from '../json/canonical.js';
import { Rational } from '../stats/rational.js';
import { buildScoreReport, scoreReportText, type ScoreReport } from './report.js';
import { parseScoreReportText, reportView } from './report-reader.js';
import { ATTRIBUTION, DOOR, ROUTE_CUT, SEALED, TWO_EXITS, fixtureSuite, holdingAgent, manifestOf, runTrial, type Mutable } from '../../../test/kits/score-kit.js';

const fireAware = baselineFactory('fire-aware-shortest-path-v1')!;
let text: string;

beforeAll(async () => {
  const suite = fixtureSuite([ATTRIBUTION, { ...DOOR, family: 'crowd' }, { ...TWO_EXITS, family: 'crowd' }, SEALED, ROUTE_CUT]);
  const manifest = manifestOf(suite, ['0', '1']);
  const a = await runTrial(suite, manifest, 'model', fireAware);
  const b = await runTrial(suite, manifest, 'model', holdingAgent(fireAware, ['p0000']), { skip: new Set([2]) });
  text = scoreReportText(buildScoreReport({ suite, trials: [a.authenticated, b.authenticated], target: { kind: 'suite' }, resamples: 100 }));
});

/** The report text after `edit` on its parsed value, written canonically again. */
function edited(edit: (report: Mutable<ScoreReport>) => void): string {
  const value = JSON.parse(text) as Mutable<ScoreReport>;
  edit(value);
  return canonicalJson(value as JsonObject) + '\n';
}

const load = (t: string) => () => parseScoreReportText(t, 'score.json');

describe('parseScoreReportText', () => {
  it('loads a real report: the same report, its digest, and the view the comparison reads', () => {
    const loaded = parseScoreReportText(text, 'score.json');
    expect(scoreReportText(loaded.report)).toBe(text);
    expect(loaded.digest).toBe(fileDigest(text));
    const view = reportView(loaded);
    expect(view.score!.toFraction()).toBe(loaded.report.score);
    expect(view.official).toBe(false);
    expect(view.packId).toBeNull();
    expect(view.trials).toBe(2);
    expect(view.avoidableCasualtiesPerTrial.toFraction()).toBe(Rational.of(loaded.report.totals.all.avoidable_casualties, 2).toFraction());
    expect(view.episodes).toHaveLength(10);
    expect(view.episodes.filter((e) => e.score === null).map((e) => e.index)).toEqual([6, 7]);
  });

  it('rejects tampered evidence', () => {
    // Overlapping sets.
    expect(load(edited((r) => r.episodes[0]!.trials[1]!.people!.unavoidable_stranded_ids.unshift('p0000')))).toThrow(/score.json: episodes\[0\].trials\[1\].people.unavoidable_stranded_ids: p0000 is also in avoidable_casualty_ids/);
    // A changed episode-trial score.
    expect(load(edited((r) => (r.episodes[0]!.trials[1]!.score = '99.000000000')))).toThrow(/episodes\[0\].trials\[1\].score: is 99.000000000/);
  });

  it('rejects a changed aggregate, interval or count', () => {
    expect(load(edited((r) => (r.score = '100/1')))).toThrow(/score.json: score: differs from the value recomputed from the evidence/);
    expect(load(edited((r) => (r.interval!.lower = '0/1')))).toThrow(/interval: differs/);
    expect(load(edited((r) => (r.totals.all.evacuated += 1)))).toThrow(/totals: differs/);
    expect(load(edited((r) => (r.diagnostics.congestion.peak_contested_cells = 0)))).toThrow(/diagnostics: differs/);
    expect(load(edited((r) => (r.official = true)))).toThrow(/official: differs/);
  });

  it('rejects a bad header, unknown fields and other constants', () => {
    expect(load(edited((r) => ((r as Record<string, unknown>).extra = 1)))).toThrow(/unknown field "extra"/);
    expect(load(edited((r) => (r.constants_digest = '0'.repeat(64))))).toThrow(/not the official scoring constants/);
    expect(load(edited((r) => (r.scoring_version = '0.9')))).toThrow(/scoring_version: must be one of "1.0"/);
    expect(load(edited((r) => (r.model_id = ' model')))).toThrow(/model_id: must not start or end with whitespace/);
    expect(load(edited((r) => (r.trials[1]!.trial = 0)))).toThrow(/trials\[1\].trial: must be 1/);
    expect(load(edited((r) => (r.trials[1]!.missing_episodes = 0)))).toThrow(/trials\[1\].missing_episodes: is 0, the evidence has 1/);
    expect(load(edited((r) => r.episodes.pop()))).toThrow(ValidationError);
    // A changed model ID changes the bootstrap seed, so the interval no longer matches.
    expect(load(edited((r) => (r.model_id = 'other-model')))).toThrow(/interval: differs/);
  });

  it('rejects a file that is not exactly canonical JSON plus one LF', () => {
    expect(load(text.slice(0, -1))).toThrow(/not canonical JSON plus one LF/);
    expect(load(indentedJson(JSON.parse(text) as JsonObject))).toThrow(/not canonical JSON plus one LF/);
    expect(load(text.replace('{', '{"score":null,'))).toThrow(/duplicate/i);
    expect(load('{')).toThrow(/score.json: not valid JSON/);
  });
});
